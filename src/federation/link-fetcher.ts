// The LinkFetcher port (services/cards/link-fetcher.ts) on top of the guarded fetch. With private
// addresses allowed (tests of local servers only) every address may be connected to.

import { getUserAgent } from "@fedify/vocab-runtime";
import type { FetchedLink, LinkFetcher } from "../services/cards/link-fetcher.ts";
import { safeFetch } from "./safe-fetch.ts";

export function createLinkFetcher(settings: {
  publicUrl: string;
  allowPrivateAddress: boolean;
  timeoutMs?: number;
}): LinkFetcher {
  const userAgent = getUserAgent({ software: "Wren", url: new URL(settings.publicUrl) });
  return {
    async fetch(url, options): Promise<FetchedLink> {
      const response = await safeFetch(
        url,
        { headers: { accept: options.accept, "user-agent": userAgent } },
        {
          maxBytes: options.maxBytes,
          timeoutMs: settings.timeoutMs ?? 10_000,
          ...(settings.allowPrivateAddress ? { isAllowedAddress: () => true } : {}),
        },
      );
      const type = response.headers.get("content-type") ?? "";
      const charset = /;\s*charset\s*=\s*"?([\w.:-]+)/i.exec(type)?.[1]?.toLowerCase() ?? null;
      return {
        url: response.url,
        status: response.status,
        contentType: (type.split(";")[0] ?? "").trim().toLowerCase(),
        charset,
        body: new Uint8Array(await response.arrayBuffer()),
      };
    },
  };
}
