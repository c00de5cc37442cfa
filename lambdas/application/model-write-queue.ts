// Writes to one workspace's model from one container run one after another. Concurrent transactions on the same
// model item only cancel each other (DynamoDB cancels both, and each retry can lose again), so a burst of imports or
// resets to one workspace would exhaust its retries and answer 503. Across containers the store's retries remain.
const tails = new Map<string, Promise<void>>();

/** Runs `work` after every earlier model write of `workspaceId` in this container has settled. */
export function afterModelWrites<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
  const run = (tails.get(workspaceId) ?? Promise.resolve()).then(work);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  tails.set(workspaceId, tail);
  // The map holds only workspaces with writes in flight.
  void tail.then(() => {
    if (tails.get(workspaceId) === tail) tails.delete(workspaceId);
  });
  return run;
}
