// The game's sounds, made on the spot with the Web Audio API: no sound files to ship or license.
// Each sound is a few short tones or a filtered click; `sound: false` in the settings mutes all.
// Every sound played is also announced as a `chess960-sound` event on `window` (its `detail` is
// the kind), for anything that wants to show or count them.

import { settings } from './settings';

/** What happened, each with its own sound. */
export type SoundKind = 'move' | 'capture' | 'check' | 'castle' | 'lowTime' | 'end' | 'notify';

let audio: AudioContext | null = null;

/** The kind of sound for a move written in SAN (`O-O`, `Nxe5+`, `Qh7#`). */
export function soundForSan(san: string): SoundKind {
  if (san.includes('+') || san.includes('#')) return 'check';
  if (san.startsWith('O-O')) return 'castle';
  if (san.includes('x')) return 'capture';
  return 'move';
}

/** Plays `kind` unless sound is off. Browsers start audio only after the page has been used
 * (a click or key); before that the sound is skipped silently. */
export function playSound(kind: SoundKind): void {
  if (!settings().sound) return;
  window.dispatchEvent(new CustomEvent('chess960-sound', { detail: kind }));
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
    const t = audio.currentTime + 0.01;
    switch (kind) {
      case 'move':
        click(audio, t, 900, 0.35);
        break;
      case 'capture':
        click(audio, t, 500, 0.55);
        click(audio, t + 0.05, 350, 0.35);
        break;
      case 'castle':
        click(audio, t, 900, 0.35);
        click(audio, t + 0.09, 750, 0.35);
        break;
      case 'check':
        click(audio, t, 700, 0.4);
        tone(audio, t + 0.02, 880, 0.12, 0.12);
        break;
      case 'lowTime':
        tone(audio, t, 1320, 0.08, 0.15);
        tone(audio, t + 0.14, 1320, 0.08, 0.15);
        break;
      case 'end':
        tone(audio, t, 523, 0.35, 0.12);
        tone(audio, t + 0.12, 659, 0.35, 0.12);
        tone(audio, t + 0.24, 784, 0.5, 0.12);
        break;
      case 'notify':
        tone(audio, t, 660, 0.15, 0.12);
        tone(audio, t + 0.16, 880, 0.2, 0.12);
        break;
    }
  } catch {
    // No Web Audio here (or it refused): the game goes on without sound.
  }
}

/** A short wooden knock: a burst of noise through a band-pass filter. */
function click(ctx: AudioContext, at: number, pitch: number, volume: number): void {
  const length = Math.floor(ctx.sampleRate * 0.06);
  const buffer = ctx.createBuffer(1, length, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 3;
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = pitch;
  filter.Q.value = 1.5;
  const gain = ctx.createGain();
  gain.gain.value = volume * 2.5;
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at);
}

/** A soft sine tone of `length` seconds. */
function tone(ctx: AudioContext, at: number, frequency: number, length: number, volume: number): void {
  const osc = ctx.createOscillator();
  osc.frequency.value = frequency;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0, at);
  gain.gain.linearRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}
