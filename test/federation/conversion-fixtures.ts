// ActivityPub documents as Mastodon, GoToSocial, Misskey and Pleroma/Akkoma publish them,
// written from their documentation and serializers (field names, contexts and quirks as they
// are sent), with invented people and hosts. A local document loader serves the JSON-LD
// contexts they name, so parsing never touches the network.

import { generateKeyPairSync } from "node:crypto";
import { preloadedContexts } from "@fedify/fedify";

// biome-ignore lint/suspicious/noExplicitAny: fixtures are free-form JSON documents.
type Json = any;

/** A real RSA public key (Fedify parses `publicKeyPem`); the documents' own are elided. */
const PUBLIC_KEY_PEM = generateKeyPairSync("rsa", { modulusLength: 2048 })
  .publicKey.export({ type: "spki", format: "pem" })
  .toString();

const MASTODON_CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  "https://w3id.org/security/v1",
  {
    manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
    toot: "http://joinmastodon.org/ns#",
    featured: { "@id": "toot:featured", "@type": "@id" },
    featuredTags: { "@id": "toot:featuredTags", "@type": "@id" },
    alsoKnownAs: { "@id": "as:alsoKnownAs", "@type": "@id" },
    movedTo: { "@id": "as:movedTo", "@type": "@id" },
    schema: "http://schema.org#",
    PropertyValue: "schema:PropertyValue",
    value: "schema:value",
    discoverable: "toot:discoverable",
    suspended: "toot:suspended",
    memorial: "toot:memorial",
    indexable: "toot:indexable",
    attributionDomains: { "@id": "toot:attributionDomains", "@type": "@id" },
    Hashtag: "as:Hashtag",
    Emoji: "toot:Emoji",
    focalPoint: { "@container": "@list", "@id": "toot:focalPoint" },
    blurhash: "toot:blurhash",
    sensitive: "as:sensitive",
    votersCount: "toot:votersCount",
  },
];

export const mastodonPerson: Json = {
  "@context": MASTODON_CONTEXT,
  id: "https://mastodon.example/users/Gargron",
  type: "Person",
  following: "https://mastodon.example/users/Gargron/following",
  followers: "https://mastodon.example/users/Gargron/followers",
  inbox: "https://mastodon.example/users/Gargron/inbox",
  outbox: "https://mastodon.example/users/Gargron/outbox",
  featured: "https://mastodon.example/users/Gargron/collections/featured",
  featuredTags: "https://mastodon.example/users/Gargron/collections/tags",
  preferredUsername: "Gargron",
  name: "Eugen :verified:",
  summary:
    '<p>Founder of <span class="h-card"><a href="https://mastodon.example/@Mastodon" class="u-url mention">@<span>Mastodon</span></a></span></p><script>steal()</script>',
  url: "https://mastodon.example/@Gargron",
  manuallyApprovesFollowers: false,
  discoverable: true,
  indexable: true,
  published: "2016-03-16T00:00:00Z",
  memorial: false,
  alsoKnownAs: ["https://old.example/users/gargron"],
  devices: "https://mastodon.example/users/Gargron/collections/devices",
  publicKey: {
    id: "https://mastodon.example/users/Gargron#main-key",
    owner: "https://mastodon.example/users/Gargron",
    publicKeyPem: PUBLIC_KEY_PEM,
  },
  tag: [
    {
      id: "https://mastodon.example/emojis/1",
      type: "Emoji",
      name: ":verified:",
      updated: "2024-01-01T00:00:00Z",
      icon: {
        type: "Image",
        mediaType: "image/png",
        url: "https://files.mastodon.example/custom_emojis/images/verified.png",
      },
    },
  ],
  attachment: [
    {
      type: "PropertyValue",
      name: "Patreon",
      value:
        '<a href="https://www.patreon.com/mastodon" target="_blank" rel="nofollow noopener noreferrer me" onclick="x()"><span class="invisible">https://www.</span><span class="">patreon.com/mastodon</span></a>',
    },
    {
      type: "PropertyValue",
      name: "Homepage",
      value: '<a href="javascript:alert(1)">zeonfederated.com</a>',
    },
  ],
  endpoints: { sharedInbox: "https://mastodon.example/inbox" },
  icon: {
    type: "Image",
    mediaType: "image/jpeg",
    url: "https://files.mastodon.example/accounts/avatars/000/000/001/original/d96d39a0abb45b92.jpg",
  },
  image: {
    type: "Image",
    mediaType: "image/png",
    url: "https://files.mastodon.example/accounts/headers/000/000/001/original/c91b871f294ea63e.png",
  },
};

export const mastodonNote: Json = {
  "@context": MASTODON_CONTEXT,
  id: "https://mastodon.example/users/Gargron/statuses/111",
  type: "Note",
  summary: "Spoilers ahead",
  inReplyTo: null,
  published: "2024-05-01T12:00:00Z",
  url: "https://mastodon.example/@Gargron/111",
  attributedTo: "https://mastodon.example/users/Gargron",
  to: ["https://www.w3.org/ns/activitystreams#Public"],
  cc: ["https://mastodon.example/users/Gargron/followers", "https://wren.example/users/alice"],
  sensitive: true,
  atomUri: "https://mastodon.example/users/Gargron/statuses/111",
  conversation: "tag:mastodon.example,2024-05-01:objectId=1:objectType=Conversation",
  content:
    '<p>Hello <span class="h-card" translate="no"><a href="https://wren.example/@alice" class="u-url mention">@<span>alice</span></a></span> <a href="https://mastodon.example/tags/Fediverse" class="mention hashtag" rel="tag">#<span>Fediverse</span></a> :verified:</p><p><img src="x" onerror="alert(1)"><iframe src="https://evil.example"></iframe></p>',
  contentMap: {
    en: '<p>Hello <span class="h-card" translate="no"><a href="https://wren.example/@alice" class="u-url mention">@<span>alice</span></a></span> <a href="https://mastodon.example/tags/Fediverse" class="mention hashtag" rel="tag">#<span>Fediverse</span></a> :verified:</p>',
  },
  attachment: [
    {
      type: "Document",
      mediaType: "image/jpeg",
      url: "https://files.mastodon.example/media_attachments/files/1/original/photo.jpg",
      name: "A wren on a branch",
      blurhash: "UBL_:rOpGG-oBUNG,qRj2so|=eE1w^n4S5NH",
      focalPoint: [0.5, -0.25],
      width: 1200,
      height: 800,
    },
    {
      type: "Document",
      mediaType: "video/mp4",
      url: "https://files.mastodon.example/media_attachments/files/2/original/clip.mp4",
      name: null,
      width: 640,
      height: 360,
    },
  ],
  tag: [
    { type: "Mention", href: "https://wren.example/users/alice", name: "@alice@wren.example" },
    { type: "Hashtag", href: "https://mastodon.example/tags/fediverse", name: "#Fediverse" },
    {
      id: "https://mastodon.example/emojis/1",
      type: "Emoji",
      name: ":verified:",
      updated: "2024-01-01T00:00:00Z",
      icon: {
        type: "Image",
        mediaType: "image/png",
        url: "https://files.mastodon.example/custom_emojis/images/verified.png",
      },
    },
  ],
  replies: {
    id: "https://mastodon.example/users/Gargron/statuses/111/replies",
    type: "Collection",
    first: { type: "CollectionPage", next: "https://mastodon.example/x", partOf: "x", items: [] },
  },
};

export const mastodonQuestion: Json = {
  "@context": MASTODON_CONTEXT,
  id: "https://mastodon.example/users/Gargron/statuses/222",
  type: "Question",
  summary: null,
  published: "2024-05-02T12:00:00Z",
  url: "https://mastodon.example/@Gargron/222",
  attributedTo: "https://mastodon.example/users/Gargron",
  to: ["https://mastodon.example/users/Gargron/followers"],
  cc: [],
  sensitive: false,
  content: "<p>Tabs or spaces?</p>",
  contentMap: { de: "<p>Tabs or spaces?</p>" },
  endTime: "2099-05-03T12:00:00Z",
  votersCount: 7,
  oneOf: [
    { type: "Note", name: "Tabs", replies: { type: "Collection", totalItems: 3 } },
    { type: "Note", name: "Spaces", replies: { type: "Collection", totalItems: 4 } },
  ],
  attachment: [],
  tag: [],
};

// GoToSocial 0.17 and later: the terms inline (older versions named contexts that do not
// exist, such as "http://joinmastodon.org/ns", which JSON-LD processors could not use).
export const gotosocialPerson: Json = {
  "@context": [
    "https://gotosocial.org/ns",
    "https://www.w3.org/ns/activitystreams",
    "https://w3id.org/security/v1",
    {
      discoverable: "toot:discoverable",
      featured: { "@id": "toot:featured", "@type": "@id" },
      manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
      alsoKnownAs: { "@id": "as:alsoKnownAs", "@type": "@id" },
      PropertyValue: "schema:PropertyValue",
      schema: "http://schema.org#",
      toot: "http://joinmastodon.org/ns#",
      value: "schema:value",
    },
  ],
  attachment: [
    { name: "should you follow me?", type: "PropertyValue", value: "maybe!" },
    { name: "age", type: "PropertyValue", value: "120" },
  ],
  alsoKnownAs: [],
  discoverable: false,
  featured: "https://gts.example/users/tobi/collections/featured",
  followers: "https://gts.example/users/tobi/followers",
  following: "https://gts.example/users/tobi/following",
  icon: {
    mediaType: "image/webp",
    type: "Image",
    url: "https://gts.example/fileserver/01AB/attachment/original/01CD.webp",
  },
  id: "https://gts.example/users/tobi",
  inbox: "https://gts.example/users/tobi/inbox",
  manuallyApprovesFollowers: true,
  name: "tobi",
  outbox: "https://gts.example/users/tobi/outbox",
  preferredUsername: "tobi",
  publicKey: {
    id: "https://gts.example/users/tobi/main-key",
    owner: "https://gts.example/users/tobi",
    publicKeyPem: PUBLIC_KEY_PEM,
  },
  summary: '<p>I post about <a href="/relative">sloths</a> and <h2>headings</h2></p>',
  tag: [],
  type: "Service",
  url: "https://gts.example/@tobi",
  published: "2022-06-01T10:00:00Z",
};

export const gotosocialNote: Json = {
  "@context": [
    "https://gotosocial.org/ns",
    "https://www.w3.org/ns/activitystreams",
    { sensitive: "as:sensitive" },
  ],
  attachment: [],
  attributedTo: "https://gts.example/users/tobi",
  cc: "https://gts.example/users/tobi/followers",
  content:
    '<p>unlisted post with a <a href="https://example.org" rel="nofollow noreferrer noopener" target="_blank">link</a></p>',
  contentMap: {
    en: '<p>unlisted post with a <a href="https://example.org" rel="nofollow noreferrer noopener" target="_blank">link</a></p>',
  },
  id: "https://gts.example/users/tobi/statuses/01HZ",
  inReplyTo: "https://mastodon.example/users/Gargron/statuses/111",
  interactionPolicy: {
    canLike: { always: ["https://www.w3.org/ns/activitystreams#Public"], approvalRequired: [] },
  },
  published: "2024-05-03T09:00:00Z",
  replies: "https://gts.example/users/tobi/statuses/01HZ/replies",
  sensitive: false,
  summary: "",
  tag: [],
  to: "https://www.w3.org/ns/activitystreams#Public",
  type: "Note",
  url: "https://gts.example/@tobi/statuses/01HZ",
};

const MISSKEY_CONTEXT = [
  "https://www.w3.org/ns/activitystreams",
  "https://w3id.org/security/v1",
  {
    Key: "sec:Key",
    manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
    sensitive: "as:sensitive",
    Hashtag: "as:Hashtag",
    quoteUrl: "as:quoteUrl",
    toot: "http://joinmastodon.org/ns#",
    Emoji: "toot:Emoji",
    featured: "toot:featured",
    discoverable: "toot:discoverable",
    schema: "http://schema.org#",
    PropertyValue: "schema:PropertyValue",
    value: "schema:value",
    misskey: "https://misskey-hub.net/ns#",
    _misskey_content: "misskey:_misskey_content",
    _misskey_quote: "misskey:_misskey_quote",
    _misskey_reaction: "misskey:_misskey_reaction",
    _misskey_votes: "misskey:_misskey_votes",
    _misskey_summary: "misskey:_misskey_summary",
    isCat: "misskey:isCat",
    vcard: "http://www.w3.org/2006/vcard/ns#",
  },
];

export const misskeyPerson: Json = {
  "@context": MISSKEY_CONTEXT,
  type: "Person",
  id: "https://misskey.example/users/9abc",
  inbox: "https://misskey.example/users/9abc/inbox",
  outbox: "https://misskey.example/users/9abc/outbox",
  followers: "https://misskey.example/users/9abc/followers",
  following: "https://misskey.example/users/9abc/following",
  featured: "https://misskey.example/users/9abc/collections/featured",
  sharedInbox: "https://misskey.example/inbox",
  endpoints: { sharedInbox: "https://misskey.example/inbox" },
  url: "https://misskey.example/@syuilo",
  preferredUsername: "syuilo",
  name: "しゅいろ :blobcat:",
  summary: "<p><span>Misskey dev</span></p>",
  _misskey_summary: "Misskey dev",
  icon: {
    type: "Image",
    url: "https://misskey.example/files/avatar.webp",
    sensitive: false,
    name: null,
  },
  image: null,
  tag: [
    {
      id: "https://misskey.example/emojis/blobcat",
      type: "Emoji",
      name: ":blobcat:",
      updated: "2023-01-01T00:00:00.000Z",
      icon: {
        type: "Image",
        mediaType: "image/webp",
        url: "https://misskey.example/files/blobcat.webp",
      },
    },
  ],
  manuallyApprovesFollowers: false,
  discoverable: true,
  publicKey: {
    id: "https://misskey.example/users/9abc#main-key",
    type: "Key",
    owner: "https://misskey.example/users/9abc",
    publicKeyPem: PUBLIC_KEY_PEM,
  },
  isCat: true,
  attachment: [{ type: "PropertyValue", name: "Web", value: "https://misskey-hub.net" }],
};

export const misskeyNote: Json = {
  "@context": MISSKEY_CONTEXT,
  id: "https://misskey.example/notes/9xyz",
  type: "Note",
  attributedTo: "https://misskey.example/users/9abc",
  content:
    '<p><i>big</i><span> :blobcat: </span><a href="https://misskey.example/tags/misskey" rel="tag">#misskey</a><span><br><br>RE: </span><a href="https://mastodon.example/users/Gargron/statuses/111">https://mastodon.example/users/Gargron/statuses/111</a></p>',
  _misskey_content: "$[x2 big] :blobcat: #misskey",
  source: { content: "$[x2 big] :blobcat: #misskey", mediaType: "text/x.misskeymarkdown" },
  _misskey_quote: "https://mastodon.example/users/Gargron/statuses/111",
  quoteUrl: "https://mastodon.example/users/Gargron/statuses/111",
  published: "2024-05-04T00:00:00.000Z",
  to: ["https://misskey.example/users/9abc/followers"],
  cc: [],
  inReplyTo: null,
  attachment: [
    {
      type: "Document",
      mediaType: "image/webp",
      url: "https://misskey.example/files/photo.webp",
      name: null,
      sensitive: true,
    },
  ],
  sensitive: true,
  tag: [
    {
      id: "https://misskey.example/emojis/blobcat",
      type: "Emoji",
      name: ":blobcat:",
      updated: "2023-01-01T00:00:00.000Z",
      icon: {
        type: "Image",
        mediaType: "image/webp",
        url: "https://misskey.example/files/blobcat.webp",
      },
    },
    { type: "Hashtag", href: "https://misskey.example/tags/misskey", name: "#misskey" },
  ],
};

export const LITEPUB_CONTEXT_URL = "https://pleroma.example/schemas/litepub-0.1.jsonld";

/** The shape of Pleroma's litepub-0.1.jsonld (the terms the Note below uses). */
const litepubContext = {
  "@context": [
    "https://www.w3.org/ns/activitystreams",
    "https://w3id.org/security/v1",
    {
      Emoji: "toot:Emoji",
      Hashtag: "as:Hashtag",
      PropertyValue: "schema:PropertyValue",
      atomUri: "ostatus:atomUri",
      conversation: { "@id": "ostatus:conversation", "@type": "@id" },
      discoverable: "toot:discoverable",
      manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
      ostatus: "http://ostatus.org#",
      schema: "http://schema.org#",
      toot: "http://joinmastodon.org/ns#",
      misskey: "https://misskey-hub.net/ns#",
      fedibird: "http://fedibird.com/ns#",
      value: "schema:value",
      sensitive: "as:sensitive",
      litepub: "http://litepub.social/ns#",
      invisible: "litepub:invisible",
      directMessage: "litepub:directMessage",
      listMessage: { "@id": "litepub:listMessage", "@type": "@id" },
      quoteUrl: "as:quoteUrl",
      quoteUri: "fedibird:quoteUri",
      oauthRegistrationEndpoint: { "@id": "litepub:oauthRegistrationEndpoint", "@type": "@id" },
      EmojiReact: "litepub:EmojiReact",
      ChatMessage: "litepub:ChatMessage",
      alsoKnownAs: { "@id": "as:alsoKnownAs", "@type": "@id" },
      vcard: "http://www.w3.org/2006/vcard/ns#",
      formerRepresentations: "litepub:formerRepresentations",
    },
  ],
};

export const pleromaNote: Json = {
  "@context": [
    "https://www.w3.org/ns/activitystreams",
    LITEPUB_CONTEXT_URL,
    { "@language": "und" },
  ],
  actor: "https://pleroma.example/users/lain",
  attachment: [],
  attributedTo: "https://pleroma.example/users/lain",
  cc: [],
  content:
    'hey <span class="h-card"><a class="u-url mention" data-user="AbC" href="https://wren.example/users/alice" rel="ugc">@<span>alice</span></a></span> <style>*{display:none}</style>check this',
  context: "https://pleroma.example/contexts/1234",
  conversation: "https://pleroma.example/contexts/1234",
  id: "https://pleroma.example/objects/5b1e",
  published: "2024-05-05T10:00:00.000Z",
  sensitive: null,
  source: { content: "hey @alice@wren.example check this", mediaType: "text/plain" },
  summary: "",
  tag: [{ href: "https://wren.example/users/alice", name: "@alice@wren.example", type: "Mention" }],
  to: ["https://wren.example/users/alice"],
  type: "Note",
};

export const pleromaArticle: Json = {
  "@context": ["https://www.w3.org/ns/activitystreams", LITEPUB_CONTEXT_URL],
  id: "https://pleroma.example/objects/article-1",
  type: "Article",
  attributedTo: "https://pleroma.example/users/lain",
  name: "On <Federation>",
  summary: "A long read",
  content: "<p>Full text that Mastodon does not show.</p>",
  url: "https://pleroma.example/notice/article-1",
  published: "2024-05-06T10:00:00.000Z",
  to: ["https://www.w3.org/ns/activitystreams#Public"],
  cc: [],
};

export const pleromaPerson: Json = {
  "@context": [
    "https://www.w3.org/ns/activitystreams",
    LITEPUB_CONTEXT_URL,
    { "@language": "und" },
  ],
  id: "https://pleroma.example/users/lain",
  type: "Person",
  preferredUsername: "lain",
  name: "lain",
  summary: "",
  inbox: "https://pleroma.example/users/lain/inbox",
  outbox: "https://pleroma.example/users/lain/outbox",
  followers: "https://pleroma.example/users/lain/followers",
  following: "https://pleroma.example/users/lain/following",
  endpoints: { sharedInbox: "https://pleroma.example/inbox" },
  url: "https://pleroma.example/users/lain",
  manuallyApprovesFollowers: false,
  discoverable: false,
  attachment: [],
  tag: [],
};

/**
 * A document loader for tests: the contexts Fedify ships and Pleroma's litepub context; every
 * other URL fails (no network in conversion tests).
 */
export async function testDocumentLoader(url: string) {
  const contexts: Record<string, unknown> = {
    ...preloadedContexts,
    [LITEPUB_CONTEXT_URL]: litepubContext,
  };
  const document = contexts[url];
  if (document === undefined) throw new Error(`test loader: no document for ${url}`);
  return { contextUrl: null, documentUrl: url, document };
}
