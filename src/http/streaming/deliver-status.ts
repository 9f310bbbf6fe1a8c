// A new or edited status on the connected streams. The facts every viewer's rules need are read
// once for all of them (services/streaming/fan-out-facts.ts); the public and hashtag streams are
// decided from those alone, the user stream asks the full home rules only of the few viewers it
// can concern, and the status is rendered once per distinct rendering (viewers whose JSON would
// be the same bytes share one), in the filter context of the stream, as the REST API renders it
// for that viewer. Viewers are worked through in chunks that let the event loop run between them.

import type { FilterContext } from "../../domain/filter.ts";
import type { ServiceContext } from "../../services/context.ts";
import { conversationOf, homeShows, listShows } from "../../services/streaming/audience.ts";
import { loadFanOutFacts } from "../../services/streaming/fan-out-facts.ts";
import { isPublicStream, publicStreamTakes } from "../../services/streaming/streams.ts";
import type { ResolvedEntry } from "../../services/timelines/resolve-entries.ts";
import { renderConversation } from "../mastodon/conversation-json.ts";
import { renderResolvedStatusText } from "../mastodon/status-json.ts";
import type { StreamClient } from "./client.ts";
import { deliverInChunks, type Outgoing, type Specs, specsOf } from "./outgoing.ts";

type ClientsByViewer = ReadonlyMap<string, ReadonlySet<StreamClient>>;

interface Viewer {
  id: string;
  mine: ReadonlySet<StreamClient>;
  specs: Specs;
}

export async function deliverStatus(
  ctx: ServiceContext,
  clients: ClientsByViewer,
  item: ResolvedEntry,
  event: "update" | "status.update",
): Promise<void> {
  const viewers: Viewer[] = [];
  for (const [id, mine] of clients) {
    const specs = specsOf(mine);
    if (specs.size > 0) viewers.push({ id, mine, specs });
  }
  if (viewers.length === 0) return;
  const facts = await loadFanOutFacts(
    ctx,
    viewers.map((v) => v.id),
    item,
  );
  /** One rendering per filter context and rendering key, by the first viewer who needs it. */
  const renderings = new Map<string, Promise<string | undefined>>();
  const rendering = (viewerId: string, context: FilterContext) => {
    const key = facts.renderingKey(viewerId, context);
    if (key === undefined) return undefined;
    const name = `${context} ${key}`;
    let text = renderings.get(name);
    if (!text) {
      text = renderResolvedStatusText(ctx, item, viewerId, context);
      renderings.set(name, text);
    }
    return text;
  };

  const eventsOf = async ({ id, specs }: Viewer): Promise<Outgoing[]> => {
    const contexts: [string, FilterContext][] = [];
    const direct: string[] = [];
    let shownAtHome: Promise<boolean> | undefined;
    for (const [key, spec] of specs) {
      if (isPublicStream(spec.name)) {
        if (publicStreamTakes(spec, item.status) && facts.publicShows(id)) {
          contexts.push([key, "public"]);
        }
      } else if (spec.name === "user") {
        if (!facts.mayShowAtHome(id)) continue;
        shownAtHome ??= homeShows(ctx, id, item);
        if (await shownAtHome) contexts.push([key, "home"]);
      } else if (spec.name === "list" && spec.list !== undefined) {
        if (await listShows(ctx, id, spec.list, item)) contexts.push([key, "home"]);
      } else if (spec.name === "direct" && event === "update") {
        direct.push(key);
      }
    }
    const out: Outgoing[] = [];
    for (const [key, context] of contexts) {
      const payload = await rendering(id, context);
      if (payload !== undefined) out.push({ key, event, payload });
    }
    if (direct.length > 0) {
      // Mastodon's direct stream carries the conversation the message updated, not the status.
      const conversation = await conversationOf(ctx, id, item.status);
      if (conversation) {
        const payload = JSON.stringify(await renderConversation(ctx, conversation, id));
        for (const key of direct) out.push({ key, event: "conversation", payload });
      }
    }
    return out;
  };

  await deliverInChunks(viewers, eventsOf, (viewer) => viewer.mine);
}
