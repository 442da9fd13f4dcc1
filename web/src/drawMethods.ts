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
