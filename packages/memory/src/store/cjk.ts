// CJK text in the full-text index. The tokenizer takes a run of letters as one word, and Chinese and Japanese write
// a sentence as one run, so 连接池 inside 数据库连接池配置说明 could not be found. The index is given CJK characters
// one word each (a space either side), and a query word holding CJK text becomes the phrase of its characters, which
// matches where they stand together, in order, wherever they are in a sentence, from two characters on.

/** Characters of the scripts written without spaces between words (Han, Hiragana, Katakana, Hangul). */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_CHARS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;
/** Every CJK character lies past U+2E7F: text with nothing past it skips the test. */
const PAST_LATIN = /[^\u0000-\u2e7f]/;

/** Whether `text` holds a CJK character. */
export function hasCjk(text: string): boolean {
  return PAST_LATIN.test(text) && CJK_CHAR.test(text);
}

/** `text` as the index is given it: each CJK character a word of its own; text without one is returned as it is. */
export function indexedText(text: string): string {
  return hasCjk(text) ? text.replace(CJK_CHARS, " $& ") : text;
}
