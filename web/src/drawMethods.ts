// The physical drawing methods `POST /api/draw` knows (spec §1.3; `chess960 draw --help`).
// 'chosen' is left out: it is a dialogue between two players, not a draw.

export const DRAW_METHODS: { value: string; label: string }[] = [
  { value: 'die', label: 'One die (Bodlaender), uniform' },
  { value: 'cards', label: 'Eight numbered cards, uniform' },
  { value: 'platonic', label: 'Platonic dice, uniform' },
  { value: 'bag-wheeler', label: "Bag with Wheeler's correction, uniform" },
  { value: 'coins', label: 'Two coins (Northam), not uniform' },
  { value: 'bag', label: 'Pieces from a bag (Coffin), not uniform' },
];

/** The method's label in lower case, for a sentence ("one die (Bodlaender), uniform"). */
export function drawMethodLabel(value: string): string {
  const label = DRAW_METHODS.find(m => m.value === value)?.label ?? value;
  return label.charAt(0).toLowerCase() + label.slice(1);
}

/**
 * A seed for the server's draw, chosen here: the game sends it back to prove its draw, and a
 * seed the server chose (64 bits) would not survive JavaScript's numbers (53 bits).
 */
export function randomSeed(): number {
  const [high = 0, low = 0] = crypto.getRandomValues(new Uint32Array(2));
  return (high & 0x1f_ffff) * 2 ** 32 + low;
}
