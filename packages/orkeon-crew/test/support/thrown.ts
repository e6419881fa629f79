/** What `run` throws, or undefined when it returns: for asserting on an error's fields and message. */
export function thrown(run: () => unknown): Error | undefined {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}
