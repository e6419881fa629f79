import { sanitizeText } from "@orphus/digest";

/** Anything but printable ASCII and line feeds: the JSON text may hold a character a reader cannot see. */
const NOT_PLAIN_ASCII = /[^\x20-\x7e\n]/;

function jsonEscape(character: string): string {
  let out = "";
  for (let i = 0; i < character.length; i++) out += `\\u${character.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

/**
 * `value` as JSON text (JSON.stringify, `space` indenting) that is safe to show a model or a terminal and loses
 * nothing: JSON already escapes controls and lone surrogates; here every other character the one sanitiser
 * (`sanitizeText` of `@orphus/digest`) would drop or change (invisible and format characters, U+2028, NEL…) is
 * written as its `\uXXXX` escape too, so a JSON parser gets the value back exactly while nothing in the text is
 * invisible. Undefined when JSON.stringify gives nothing (undefined, a function).
 */
export function showableJson(value: unknown, space?: number): string | undefined {
  const json = JSON.stringify(value, null, space) as string | undefined;
  if (json === undefined || !NOT_PLAIN_ASCII.test(json) || sanitizeText(json) === json) return json;
  let out = "";
  for (const character of json) {
    out +=
      (character.codePointAt(0) as number) < 0x80 || sanitizeText(character) === character
        ? character
        : jsonEscape(character);
  }
  return out;
}
