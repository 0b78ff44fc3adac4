/**
 * What may name an object or a place, defined once: the characters an identifier (a key, path, ID or a
 * title adopt looks an object up by) never holds, the shape of a path segment and of a path of a site,
 * and when two paths only look alike. The stack-file checks, the kinds' declarations and the client
 * read these; a value that could address another route, or read as something it is not, is refused
 * before any request.
 */

/**
 * Controls (NUL included), zero-width characters (U+200B–U+200D, U+2060, U+FEFF), bidirectional
 * controls (U+200E/F, U+202A–U+202E, U+2066–U+2069) and other invisible formatting characters: the
 * Unicode categories Cc and Cf.
 */
const HIDDEN = /[\p{Cc}\p{Cf}]/u;

/**
 * One segment of a URL path, as the JSON Schema pattern of a section's or site space's `path`: no `/`,
 * `\`, `?`, `#`, `%`, white space or hidden character, and not `.` or `..` (which address the level
 * above). Letters of any script are allowed; see {@link confusableWith} for look-alikes.
 */
export const PATH_SEGMENT_PATTERN = "^(?!\\.{1,2}$)[^/\\\\?#%\\s\\p{Cc}\\p{Cf}]+$";

/** {@link PATH_SEGMENT_PATTERN} in words, for its failure message (completes "must be …"). */
export const PATH_SEGMENT_WORDS = "one segment of a URL path: no '/', '\\', '?', '#', '%', spaces or invisible characters, and not '.' or '..', like api-v2";

/** What a hidden character is, for messages. */
function hiddenKind(c: string): string {
  const code = c.codePointAt(0)!;
  if (/\p{Cc}/u.test(c)) return code === 0 ? "the NUL character" : "a control character";
  if ((code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff) return "a zero-width character";
  if (code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return "a bidirectional control";
  return "an invisible formatting character";
}

/** `U+202E (a bidirectional control)` for the first hidden character of `text`; undefined when it has none. */
export function hiddenCharacter(text: string): string | undefined {
  const found = HIDDEN.exec(text);
  if (!found) return undefined;
  const c = found[0];
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")} (${hiddenKind(c)})`;
}

/** The reason an identifier is refused for a hidden character, or undefined. */
export function hiddenCharacterProblem(text: string): string | undefined {
  const hidden = hiddenCharacter(text);
  return hidden === undefined ? undefined : `holds ${hidden} at position ${[...text.slice(0, HIDDEN.exec(text)!.index)].length + 1}; identifiers may not hold invisible or text-reordering characters`;
}

/** `%2e` → `.`; an invalid escape stays as written. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Why a path of a site (`/a/b`: a redirect's source or its destination path) could address something
 * else than it reads: a `.` or `..` segment, written or percent-encoded (`%2e%2e`), an encoded `/` or
 * `\` (`/%2F%2Fevil.example` decodes to a protocol-relative address), an encoded control character.
 * Undefined when it is plain.
 */
export function sitePathProblem(path: string): string | undefined {
  for (const segment of path.split("/").slice(1)) {
    const decoded = decodeSegment(segment);
    if (decoded === "." || decoded === "..") {
      return `has a ${JSON.stringify(segment)} segment${segment === decoded ? "" : ` (${decoded} encoded)`}, which addresses another level than the path reads; write the path it leads to`;
    }
  }
  const encoded = /%(2[fF]|5[cC])/.exec(path);
  if (encoded) return `holds an encoded ${encoded[1]!.toLowerCase() === "2f" ? "'/'" : "'\\'"} (%${encoded[1]}), which reads as one segment but may be served as two (or as another site's address); write the path plainly`;
  const control = /%([01][0-9a-fA-F]|7[fF])/.exec(path);
  if (control) return `holds an encoded control character (%${control[1]}); paths may not hold invisible characters`;
  return undefined;
}

/**
 * Why a page's path inside a space (slugs joined by `/`, `getting-started/installation`) is refused: an
 * empty, `.` or `..` segment (written or encoded), a `\`, or a hidden character. Undefined when it is plain.
 */
export function pagePathProblem(page: string): string | undefined {
  const hidden = hiddenCharacterProblem(page);
  if (hidden) return hidden;
  if (page.includes("\\")) return "holds a '\\'; a page's path is slugs joined by '/'";
  for (const segment of page.split("/")) {
    const decoded = decodeSegment(segment);
    if (segment === "") return "has an empty segment (a leading, trailing or doubled '/'); a page's path is slugs joined by '/', like getting-started/installation";
    if (decoded === "." || decoded === "..") return `has a ${JSON.stringify(segment)} segment, which addresses another page than the path reads; give the page's own path`;
    if (/[/\\]/.test(decoded)) return `holds an encoded '/' or '\\' in ${JSON.stringify(segment)}; write the path plainly`;
  }
  return undefined;
}

/**
 * Letters of other scripts drawn like Latin ones (Cyrillic, Greek, and a few others), mapped to the
 * Latin letter they pass for. Not the whole Unicode confusables table: the letters that make a path
 * look like a sibling's.
 */
const LOOKALIKES: Record<string, string> = {
  // Cyrillic
  "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t", "у": "y", "ԝ": "w", "х": "x", "ү": "y",
  // Greek
  "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w",
  // Others drawn as Latin letters or digits
  "ı": "i", "ɡ": "g", "ɑ": "a", "ʏ": "y", "ℓ": "l", "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "−": "-",
};

/** The form two look-alike strings share: compatibility-normalised, lowercase, look-alike letters as Latin. */
export function skeleton(text: string): string {
  return [...text.normalize("NFKC").toLowerCase()].map((c) => LOOKALIKES[c] ?? c).join("").replace(/[\u0300-\u036f]/g, "");
}

/**
 * The first of `siblings` that `text` only looks like (the same skeleton, different characters), or
 * undefined: a reader, or a reviewer of the file, cannot tell the two apart.
 */
export function confusableWith(text: string, siblings: readonly string[]): string | undefined {
  const mine = skeleton(text);
  return siblings.find((s) => s !== text && skeleton(s) === mine);
}
