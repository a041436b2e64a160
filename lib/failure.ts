// What went wrong, in one line, and a time limit for code we don't control.

/** One line saying what went wrong, whatever was thrown. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return firstLine(error.message) || error.name;
  return firstLine(printable(error));
}

/** One short line naming any value (what a hook returned, say). */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String.call(0, value);
  } catch {
    text = printable(value);
  }
  return firstLine(text).slice(0, 80);
}

export function firstLine(text: string): string {
  return text.split("\n")[0];
}

/** `String(value)`, except for values that refuse to become a string (null-prototype objects). */
export function printable(value: unknown): string {
  try {
    // Through `call`, here and in describeValue: the build's UglifyJS (`unsafe`) writes a plain
    // `String(value)` as `"" + value`, which throws for a symbol and asks an object's valueOf first.
    return String.call(0, value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Rejects with `message` when `promise` hasn't settled within `ms`. */
export function withTimeLimit<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}
