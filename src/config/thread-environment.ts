// The environment of a worker thread that needs a variable the process's lacks (the status
// filing thread: the compile cache). Read here because only config/ reads the environment.

export function environmentWith(
  extra: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return { ...env, ...extra };
}
