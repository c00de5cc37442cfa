// The text's main language by its function words (articles, pronouns, prepositions), counted over the tokens the
// tokenizer already hashed. Hand-written rather than a library: the detectors on npm that cover these languages
// (franc and its trigram tables, cld ports) add 50 KB to several hundred KB to the analyze bundle and a second pass
// over the text, for languages the engine's lexicon does not speak anyway. `und` when the text is too short or mixed.
import { tokenHashesMany, type TokenBuffer } from './tokens';

const FUNCTION_WORDS: Record<string, string> = {
  en: 'the and is are was were to of in that this it for with you your we our have has not be will would please thanks',
  de: 'der die das und ist sind nicht ein eine einen mit für fur auf ich sie wir ihr uns bitte danke zu den dem des bei oder auch',
  fr: 'le la les et est sont pas une un des du pour avec vous nous je merci sur dans ce cette qui que au aux',
  es: 'el la los las y es son no una un del para con usted nosotros gracias por en que su sus al pero como está esta',
  it: 'il lo gli e è non una di per con voi noi grazie che sono della nel questo',
  nl: 'de het een en is zijn niet met voor wij jullie bedankt op van dat deze ook',
  pt: 'o os as e é são não uma um do da para com você nós obrigado que em por seu sua',
};
const LANGS = Object.keys(FUNCTION_WORDS);
/** Tokens read: the opening of the text tells its language. */
const READ_TOKENS = 200;
const MIN_HITS = 3;

let table: Map<number, number[]> | null = null;

function words(): Map<number, number[]> {
  if (table === null) {
    table = new Map();
    LANGS.forEach((lang, l) => {
      const list = FUNCTION_WORDS[lang].split(' ');
      const { h1, first } = tokenHashesMany(list, false);
      for (let w = 0; w < list.length; w++) {
        if (first[w + 1] - first[w] !== 1) continue;
        const langs = table!.get(h1[first[w]]) ?? [];
        if (!langs.includes(l)) langs.push(l);
        table!.set(h1[first[w]], langs);
      }
    });
  }
  return table;
}

const hits = new Int32Array(LANGS.length);

export function detectLanguage(buf: TokenBuffer): string {
  const W = words();
  hits.fill(0);
  let n = 0;
  for (let i = 0; i < buf.count && n < READ_TOKENS; i++) {
    if (buf.field[i] > 1) break;
    n++;
    const langs = W.get(buf.h1[i]);
    // A word shared by several languages ("la", "de") counts for none of them.
    if (langs !== undefined && langs.length === 1) hits[langs[0]]++;
  }
  let best = -1;
  let second = 0;
  for (let l = 0; l < LANGS.length; l++) {
    if (best < 0 || hits[l] > hits[best]) {
      if (best >= 0) second = Math.max(second, hits[best]);
      best = l;
    } else second = Math.max(second, hits[l]);
  }
  if (best < 0 || hits[best] < MIN_HITS || hits[best] < 2 * second) return 'und';
  return LANGS[best];
}
