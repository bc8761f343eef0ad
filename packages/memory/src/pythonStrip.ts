/** The characters Python's str.isspace() accepts (str.strip with no argument removes these), as a regex class body. */
export const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'g');
const PY_LSTRIP = new RegExp(`^[${PY_SPACE}]+`);

/**
 * Python's `str.strip()`: what Hermes applies to memory entries it writes and reads
 * (tools/memory_tool.py). JavaScript's trim differs (it keeps U+001C..U+001F and U+0085, and strips
 * U+FEFF), so an entry trimmed by it could be mirrored into a MEMORY.md that Hermes reads with other
 * entries and refuses to edit as drift (outside test, session 25).
 */
export const pythonStrip = (text: string): string => text.replace(PY_STRIP, '');

/** Python's `str.lstrip()`. */
export const pythonLstrip = (text: string): string => text.replace(PY_LSTRIP, '');
