// The text's main language by its function words (articles, pronouns, prepositions), counted over the tokens the
// tokenizer already hashed. Hand-written rather than a library: the detectors on npm that cover these languages
// (franc and its trigram tables, cld ports) add 50 KB to several hundred KB to the analyze bundle and a second pass
// over the text, for languages the engine's lexicon does not speak anyway. `und` when the text is too short or mixed.
import { tokenHashesMany, type TokenBuffer } from './tokens';

const FUNCTION_WORDS: Record<string, string> = {
  en: 'the and is are was were to of in that this it for with you your we our have has had not be been will would please thanks ' +
    'a an on at by from as or but if they them their there what which who when where how why all can could should do does did ' +
    'my me i he she his her its than then so no yes just about into out up over after before because only also any some very',
  de: 'der die das und ist sind nicht ein eine einen einem einer mit für fur auf ich sie wir ihr uns bitte danke zu den dem des bei ' +
    'oder auch aber wenn dass daß wie was wer wo warum noch nur schon sehr kann können muss war waren wird werden hat haben habe ' +
    'mein meine dein sein seine kein keine nichts man sich mir mich dir dich es im vom zum zur über uber nach vor durch gegen ohne um',
  fr: 'le la les et est sont pas une un des du pour avec vous nous je merci sur dans ce cette qui que au aux ne il elle ils elles ' +
    'on se sa son ses leur leurs mais ou où donc car comme tout tous plus très tres peut être etre avoir fait par en y mon ma mes ' +
    "ton ta tes notre votre aussi quand sans sous entre chez d'un d'une c'est n'est l'on qu'il",
  es: 'el la los las y es son no una un del para con usted nosotros gracias por en que su sus al pero como está esta este ' +
    'esto estos estas lo le les se me mi mis tu tus muy más mas ya hay ser fue era tiene tienen puede cuando donde porque ' +
    'sin sobre entre hasta desde todo todos nada algo él ella ellos yo también tambien sí si',
  it: 'il lo gli e è non una di per con voi noi grazie che sono della nel questo ' +
    'la le i un uno del dello degli delle al alla ai agli alle dal dalla nei nella sul sulla ma se come anche più piu ' +
    'molto ha hanno ho essere stato era fa tutto tutti niente qualcosa quando dove perché perche chi cosa mio mia suo sua io tu lui lei',
  nl: 'de het een en is zijn niet met voor wij jullie bedankt op van dat deze ook ' +
    'ik je jij hij zij ze we wat wie waar hoe waarom maar als of dan nog al naar bij uit om over door tot kan kunnen moet ' +
    'was waren wordt worden heeft hebben heb geen niets er hier daar dit die mijn zijn haar ons onze uw veel meer',
  pt: 'o os as e é são não uma um do da para com você nós obrigado que em por seu sua ' +
    'dos das no na nos nas ao aos pelo pela mas se como mais muito já ja há ser foi era tem têm pode quando onde porque ' +
    'sem sobre entre até desde tudo todos nada algo ele ela eles elas eu meu minha também tambem sim isso isto este esta',
};
const LANGS = Object.keys(FUNCTION_WORDS);
/** Tokens read: the opening of the text tells its language. */
const READ_TOKENS = 200;
/** Hits the winner needs (a word several languages share counts a share to each). */
const MIN_HITS = 1.5;

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

const hits = new Float64Array(LANGS.length);

// Letters only some of the languages write (the tokens are folded without diacritics, so they are read from the text):
// each counts half a hit, shared among the languages that use it.
const LETTERS: Record<string, string> = {
  ñ: 'es', '¿': 'es', '¡': 'es', ã: 'pt', õ: 'pt', ç: 'fr pt', ß: 'de', ä: 'de', ö: 'de', ü: 'de', è: 'it fr', ò: 'it', ù: 'it fr',
  ì: 'it', ê: 'fr pt', â: 'fr pt', î: 'fr', ô: 'fr pt', û: 'fr', œ: 'fr', ë: 'nl fr', ï: 'nl fr', á: 'es pt', í: 'es pt', ó: 'es pt', ú: 'es pt',
};
const LETTER_LANGS = new Map<number, number[]>(Object.entries(LETTERS).map(([ch, ls]) => [ch.charCodeAt(0), ls.split(' ').map((l) => LANGS.indexOf(l))]));
/** Characters read for letter hints: the opening of the text. */
const LETTER_CHARS = 1_000;

function letterHints(text: string): void {
  const n = text.length < LETTER_CHARS ? text.length : LETTER_CHARS;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xa1) continue;
    const langs = LETTER_LANGS.get(c >= 0xc0 && c <= 0xde ? c + 0x20 : c);
    if (langs !== undefined) for (const l of langs) hits[l] += 0.5 / langs.length;
  }
}

export function detectLanguage(buf: TokenBuffer): string {
  const W = words();
  hits.fill(0);
  let n = 0;
  for (let i = 0; i < buf.count && n < READ_TOKENS; i++) {
    if (buf.field[i] > 1) break;
    n++;
    const langs = W.get(buf.h1[i]);
    // A word several languages share ("la", "de", "in") counts a share to each.
    if (langs !== undefined) for (const l of langs) hits[l] += 1 / langs.length;
  }
  letterHints(buf.texts[0]);
  letterHints(buf.texts[1]);
  let best = -1;
  let second = 0;
  for (let l = 0; l < LANGS.length; l++) {
    if (best < 0 || hits[l] > hits[best]) {
      if (best >= 0) second = Math.max(second, hits[best]);
      best = l;
    } else second = Math.max(second, hits[l]);
  }
  // The winner needs a few hits and a clear lead: 1.5 times the runner-up.
  if (best < 0 || hits[best] < MIN_HITS || hits[best] < 1.5 * second) return 'und';
  return LANGS[best];
}
