// Text in Unicode's composed form (NFC), the one form keywords and learning compare text in: "Kündigung" typed on
// one system and sent decomposed (u + U+0308) by another reads the same. A run of more than 30 combining marks is cut
// to 30 first (UAX #15's stream-safe limit): composing reorders a run of mixed marks in time that grows with the
// square of its length (120,000 marks took about 4 s, and a batch of four such signals ran past a Lambda's timeout),
// and no text a person writes holds such a run.
const MARK_RUN = /\p{M}{31,}/gu;

export function composed(text: string): string {
  return text.replace(MARK_RUN, (run) => Array.from(run).slice(0, 30).join('')).normalize('NFC');
}
