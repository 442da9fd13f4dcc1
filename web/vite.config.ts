import { defineConfig } from 'vite';

// The server embeds dist/ into the binary and CI rebuilds it to compare byte for byte, so the
// output must be deterministic: content-hashed names, no build timestamps, no source maps
// (their absolute paths would differ between machines).
export default defineConfig({
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
