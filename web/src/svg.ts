// SVG elements for the hand-drawn charts and diagrams (no chart library).

const SVG_NS = 'http://www.w3.org/2000/svg';

/** A new SVG element `tag` with `attrs`, holding `children` in order (a string becomes text). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number>,
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  el.append(...children);
  return el;
}
