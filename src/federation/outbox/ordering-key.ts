// Fedify's `orderingKey` for an outgoing activity: deliveries with the same key to one server are
// queued one at a time, in the order they were sent (Fedify appends the inbox's origin to the
// key). The key is the object the activity is about, as Fedify documents it, so a Note's Create,
// Update and Delete (and a Like and its Undo, a Follow and its Undo, an Accept and a later
// Reject) reach a server in the order they happened. Activities that wrap another one (Undo,
// Accept, Reject) take the key of the one they wrap.

import { Accept, type Activity, Reject, Undo } from "@fedify/vocab";

/** Never fetches: the wrapped activity is embedded in everything Wren sends. */
const noFetch = async (): Promise<never> => {
  throw new Error("the wrapped activity is not embedded");
};

export async function orderingKeyOf(activity: Activity): Promise<string | undefined> {
  if (activity instanceof Undo || activity instanceof Accept || activity instanceof Reject) {
    const inner = await activity.getObject({
      crossOrigin: "trust",
      documentLoader: noFetch,
      suppressError: true,
    });
    if (inner && "objectId" in inner) {
      const key = (inner as Activity).objectId;
      if (key) return key.href;
    }
  }
  return activity.objectId?.href;
}
