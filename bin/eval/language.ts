// Language detection on short real sentences: filled in by the language step (see languageFigures).
import type { Figure } from './report';

export function languageFigures(): { figures: Figure[]; lines: string[]; detail: unknown } {
  return { figures: [], lines: ['Language: not measured yet'], detail: null };
}
