/**
 * A value made on first use, then kept. For the `Intl` formatters: the first one with a time zone costs
 * tens of milliseconds (the browser loads ICU's zone and locale data), which a module that creates it at
 * load time adds to every page's start, even a page that never shows a date.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
