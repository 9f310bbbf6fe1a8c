// TEMPORARY (issue 16, removed once every store exists): a store the postgres backend does not
// have yet; any call fails with a message that names it.

export function notBuilt<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (property === "then") return undefined;
      return () =>
        Promise.reject(new Error(`postgres: ${name}.${String(property)} is not built yet`));
    },
  });
}
