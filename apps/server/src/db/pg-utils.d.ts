// pg's own mapping of a JavaScript value to what it binds (text, or bytes for a Buffer), which its exports leave out.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): Buffer | string | null };
  export default utils;
}
