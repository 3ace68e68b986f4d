/**
 * What the API description says about each route of the route table (functions/routes.ts), keyed by
 * its method and path: the zod schemas the operations parse with and the views answer with, a summary,
 * and the refusals the operation itself adds. Only the document builder reads it, so the schemas of
 * every route reach no bundle but the one that builds the document.
 *
 * Refusals that follow from the route's shape (auth, path ids, pagination, a body, file parts) are
 * derived by ./errors.ts; `errors` lists only what the operation adds.
 */
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import type { ErrorCode } from '#domain/errors';
import { dataOf, deletedRecord, pageOf, sliceOf } from '#domain/schemas/envelope';
import { createProductInput, createSampleProductInput, productResponse, updateProductInput } from '#domain/schemas/product';
import { avatarResponse, createAvatarFromUpload, createAvatarInput } from '#domain/schemas/avatar';
import { addMusicFromFile, addMusicFromUpload, deletedMusicResponse, musicTrackResponse } from '#domain/schemas/music';
import { saveReactionInput, savedReactionResponse } from '#domain/schemas/reaction';
import { approveVideoInput, regenerateVideoInput } from '#domain/schemas/video';
import { falCallbackInput, providerCallbackResponse } from '#domain/schemas/provider-callback';
import { createVideoBatchRequest, createVideoRequest } from '#domain/schemas/video-variants';
import { jobResponse, takeResponse } from '#domain/schemas/job';
import { videoBatchResponse } from '#domain/schemas/video-batch';
import { videoQuoteResponse } from '#domain/schemas/quote';
import { finishedVideoResponse } from '#domain/schemas/finished-video';
import { hookIdeasResponse, hookRequest } from '#domain/schemas/hooks';
import { captionPreviewInput } from '#domain/schemas/captions';
import { channelSyncInput, channelSyncResponse, connectionResponse, disconnectResponse, postResponse } from '#domain/schemas/social';
import { analyticsOverviewResponse, analyticsSyncResponse } from '#domain/schemas/analytics';
import { usageResponse } from '#domain/schemas/usage';
import { updateTicketResponse } from '#domain/schemas/live-updates';
import { changePlanInput, planChangeResponse, plansResponse, stripeEventInput, stripeWebhookResponse } from '#domain/schemas/plans';
import { createUploadInput, uploadResponse } from '#domain/schemas/upload';
import { livenessResponse } from '#domain/schemas/meta';
import {
  createWebhookInput,
  createdWebhookResponse,
  deletedWebhookResponse,
  rotateSecretInput,
  rotatedWebhookResponse,
  testEventResponse,
  updateWebhookInput,
  webhookDeliveryResponse,
  webhookResponse,
} from '#domain/schemas/webhooks';
import { sentEventsResponse } from '#domain/schemas/webhook-events';
import {
  accountResponse,
  apiKeyResponse,
  changePasswordInput,
  createKeyInput,
  createdApiKeyResponse,
  logInInput,
  passwordChangedResponse,
  passwordResetConfirmInput,
  passwordResetRequestedResponse,
  passwordResetRequestInput,
  passwordResetResponse,
  revokedApiKeyResponse,
  sessionResponse,
  signUpInput,
  signedInResponse,
  signedOutResponse,
} from '#domain/schemas/accounts';
import { connectionInput } from '#domain/social';
import { createPostInput } from '#domain/social-post';
import { ROUTES, type RouteDefinition } from '#functions/routes';
import { AVATAR_PROCESSING, JOB_COMPOSING, JOB_QUEUED, OWN_MUSIC_TRACK, PRODUCT_PROCESSING } from './examples/media';

type SuccessStatus = 200 | 201 | 202 | 302;

/** One success answer: JSON by default, with the schema of its whole body. */
interface Answer {
  description: string;
  schema?: ZodMiniType;
  /** Non-JSON answers (the docs page and its script and stylesheet). */
  contentType?: string;
  /** A redirect: no body, a `Location`. */
  redirect?: true;
  /** The body's example, where the schema's own (./examples) is not the one to show. */
  example?: unknown;
}

export interface RouteContract {
  summary: string;
  description?: string;
  /** The fields of the body (JSON and form; multipart too unless `multipartFields` differs). */
  fields?: ZodMiniType;
  /** The text fields of a multipart body, where they differ from the JSON and form ones. */
  multipartFields?: ZodMiniType;
  responses: Readonly<Partial<Record<SuccessStatus, Answer>>>;
  errors?: readonly ErrorCode[];
}

/** `POST /products`: the table's method and path, without the prefix. */
type ContractKey = `${RouteDefinition['method']} /${string}`;

const ok = (description: string, schema: ZodMiniType, example?: unknown): Answer => ({ description, schema, ...(example === undefined ? {} : { example }) });
const gone: Answer = { description: 'Deleted', schema: dataOf(deletedRecord) };

const CONTRACTS: Readonly<Record<ContractKey, RouteContract>> = {
  'GET /': {
    summary: 'Liveness',
    description: 'Public, no credential: 200 while the service answers, with its name, the major version in the path and the revision answering. A health check.', responses: { 200: ok('The service answers', dataOf(livenessResponse)) } },
  'GET /openapi.json': {
    summary: 'This API description (OpenAPI 3.1)',
    description: 'Public, no credential. Built from the route table and the schemas the operations parse with and answer with; feed it to a client generator, a mock server or a linter. docs/openapi.json in the repository is the same document.',
    responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
  },
  'GET /docs': {
    summary: 'The API reference page',
    description: 'Public, no credential: Swagger UI rendering this document, to read and try the operations in a browser.',
    responses: { 200: { description: 'A page rendering this document; it loads its script and stylesheet from this API only', contentType: 'text/html' } },
  },
  'GET /docs/reference.js': {
    summary: "The reference page's script",
    description: 'What GET /docs loads: served by this API, so the page needs no other host.',
    responses: { 200: { description: "Swagger UI's prebuilt bundle", contentType: 'text/javascript' } },
  },
  'GET /docs/reference.css': {
    summary: "The reference page's stylesheet",
    description: 'What GET /docs loads: served by this API, so the page needs no other host.',
    responses: { 200: { description: "Swagger UI's stylesheet", contentType: 'text/css' } },
  },
  'GET /docs/errors': {
    summary: 'The error reference',
    description: "Every error code with its status and what to do, one anchor per code: where an error envelope's `doc_url` points.",
    responses: { 200: { description: 'A static page, no script', contentType: 'text/html' } },
  },

  'GET /products': {
    summary: 'List products',
    description: "The account's products, newest first, a page at a time (`page`, `per_page`; `meta.total` counts them all), each with its demo clip's state and, once `ready`, a signed link to it.",
    responses: { 200: ok('A page of products, newest first', pageOf(productResponse)) } },
  'POST /products': {
    summary: 'Create a product',
    description:
      'With an optional demo clip, normalised in the background to 1080x1920: a multipart `demo_video`, `demo_video_upload_id` (a direct upload, POST /uploads) or `demo_video_url` (a public https link, fetched within the request: at most 20 s, and the same 50 MB; a link to a private address, even by a redirect, is 400). One of them. MP4, MOV, AVI or WebM, told by its bytes (415 otherwise). A landscape or square demo is 422 (`param` `reframe`) unless `reframe` (`blur` or `crop`) is sent; such a direct upload stays unused, to be sent again with it. `demo_start_s` and `demo_end_s` keep a part of the demo (at least 1 s, at most 180 s; an end past the demo is 400); a demo over 180 s needs them. `reframe` or a trim without a demo is 400.',
    fields: createProductInput,
    responses: { 201: ok('Created; a demo clip is `processing`', dataOf(productResponse), { data: PRODUCT_PROCESSING }) },
    errors: ['not_found', 'conflict', 'upstream_unavailable'],
  },
  'POST /products/sample': {
    summary: 'Create the sample product',
    description:
      "A product like any other (listed, counted and deleted the same way) whose demo clip this service draws itself: a fictional habit tracker, 6 s at 1080x1920 with a soft sound bed, already in the output encoding. It takes no fields: send no body, or an empty JSON or form one. The clip is made once per stack; each sample product gets its own copy within the request and is `ready` at once. Only the stack's very first one answers `processing` while the clip is made (well under a minute), then turns `ready` (webhook `product.demo.ready`).",
    fields: createSampleProductInput,
    responses: { 201: ok('Created; its demo `ready` (`processing` only while the stack makes its first sample clip)', dataOf(productResponse)) },
  },
  'GET /products/{id}': {
    summary: 'Get a product',
    description:
      'With its demo clip: `processing` while it is normalised, then `ready` with a signed `url` (good until `url_expires_at`: ask again for a fresh one) or `failed` with the reason. Poll this, or take the `product.demo.ready` and `product.demo.failed` webhooks.',
    responses: { 200: ok('The product', dataOf(productResponse)) } },
  'PATCH /products/{id}': {
    summary: 'Update a product',
    description: 'Changes the name, the description or both (at least one; `description: null` clears it). The demo clip stays as it is: another demo is another product.',
    fields: updateProductInput, responses: { 200: ok('The updated product', dataOf(productResponse)) } },
  'PUT /products/{id}': {
    summary: 'Update a product (as PATCH: only the fields given change)',
    description: 'The same as PATCH /products/{id}: fields left out keep their value.',
    fields: updateProductInput,
    responses: { 200: ok('The updated product', dataOf(productResponse)) },
  },
  'DELETE /products/{id}': {
    summary: 'Delete a product and its demo',
    description: 'The record goes first, so the product leaves the lists at once and a job still using it ends failed (`input_deleted`); then its demo files.',
    responses: { 200: gone },
  },

  'GET /avatars': {
    summary: 'List avatars: the stock ones, then the account\'s own (newest first)',
    description:
      'Every account has the stock avatars (`stock: true`, in a fixed order, the same ids on every account): use them as `avatar_id` like your own. They do not count against the plan\'s avatar cap and cannot be deleted.',
    responses: { 200: ok('Every avatar of the account, stock ones first', dataOf(z.array(avatarResponse))) },
  },
  'POST /avatars': {
    summary: 'Create an avatar from a prompt, or upload one',
    description:
      'A `prompt` (JSON or form) generates one; a multipart `image`, `image_upload_id` (a direct upload, POST /uploads) or `image_url` (a public https link, fetched within the request; a private address, even by a redirect, is 400) uploads one. Only one of them. An uploaded image must show a face (422 `no_face` otherwise; nothing is stored).',
    fields: createAvatarInput,
    multipartFields: createAvatarFromUpload,
    responses: {
      201: ok('Made within the request (an upload, or the local engine): `ready`', dataOf(avatarResponse)),
      202: ok('A hosted engine makes it in the background: `processing`', dataOf(avatarResponse), { data: AVATAR_PROCESSING }),
    },
    errors: ['not_found', 'conflict', 'avatars_full', 'invalid_media', 'no_face', 'upstream_unavailable'],
  },
  'GET /avatars/{id}': {
    summary: 'Get an avatar',
    description: 'A stock avatar or one of the account\'s own, with a signed link to its image once `ready`. A prompt avatar made by a hosted engine is `processing` until it is done: poll this, or take the `avatar.ready` and `avatar.failed` webhooks.',
    responses: { 200: ok('The avatar', dataOf(avatarResponse)) } },
  'DELETE /avatars/{id}': { summary: 'Delete an avatar and its images', description: 'A stock avatar cannot be deleted (409).', responses: { 200: gone }, errors: ['conflict'] },

  'GET /music': {
    summary: 'List music: the built-in tracks, then the account\'s own (newest first)',
    description:
      'What a job\'s `music_id` names. Every track is levelled to −14 LUFS. `preview_url` is the path of GET /music/{music_id}/audio, which redirects to the audio: listing signs no link and renders nothing.',
    responses: { 200: ok('Every track the account can use', dataOf(z.array(musicTrackResponse))) },
  },
  'POST /music': {
    summary: 'Add a music track',
    description:
      'A multipart `audio` file, or `audio_upload_id` (a direct upload, POST /uploads with purpose `music`; on AWS the way for files over 4 MB); `name` is optional (else the file\'s name). MP3, M4A/AAC, WAV, OGG (Vorbis or Opus) or FLAC, decided by the bytes; at most 20 MB and 10 minutes, with a sound stream and no video. It is transcoded within the request to AAC 48 kHz stereo at 128 kbit/s and levelled to −14 LUFS integrated with true peaks under −1.5 dBTP; a refused file leaves nothing behind. An account keeps at most 50 tracks (409 past that).',
    fields: addMusicFromUpload,
    multipartFields: addMusicFromFile,
    responses: { 201: ok('Added: the track, ready to use as `music_id`', dataOf(musicTrackResponse), { data: OWN_MUSIC_TRACK }) },
    errors: ['not_found', 'conflict'],
  },
  'GET /music/{music_id}/audio': {
    summary: 'Play a music track',
    description: 'Answers 302 to a link to the audio (AAC in .m4a) that works for an hour. A built-in track\'s file is made the first time any account asks for it.',
    responses: { 302: { description: 'To the audio', redirect: true } },
  },
  'DELETE /music/{music_id}': {
    summary: 'Delete one of the account\'s music tracks and its file',
    description:
      'Only the account\'s own tracks (`t12`): a built-in one is 409. A job created afterwards with its id is 404; a video already composed keeps its sound.',
    responses: { 200: ok('Deleted', dataOf(deletedMusicResponse)) },
    errors: ['conflict'],
  },

  'GET /reactions': {
    summary: 'List saved reactions',
    description: "The account's library of saved reaction clips, newest first, each with a signed link to its clip: what a `reuse` job's `reaction_id` names. The plan caps its size (GET /usage).",
    responses: { 200: ok('The library, newest first', dataOf(z.array(savedReactionResponse))) } },
  'POST /reactions': {
    summary: "Save a preview job's reaction clip to the library",
    description:
      'The reaction of a preview job (once it has one to show) is copied into the library, to make more videos from with `method: reuse`. Once per job: saving the same job again answers 200 with the reaction saved first. A full library is 402 `library_full`.',
    fields: saveReactionInput,
    responses: {
      200: ok('This job was saved before: the same reaction', dataOf(savedReactionResponse)),
      201: ok('Saved', dataOf(savedReactionResponse)),
    },
    errors: ['not_found', 'conflict', 'library_full'],
  },
  'GET /reactions/{id}': {
    summary: 'Get a saved reaction',
    description: 'With a signed link to its clip (good until `clip_url_expires_at`: ask again for a fresh one).',
    responses: { 200: ok('The saved reaction', dataOf(savedReactionResponse)) } },
  'DELETE /reactions/{id}': {
    summary: 'Delete a saved reaction',
    description: 'Frees its place in the library; its clip is deleted. Videos already made with it keep it.',
    responses: { 200: gone },
  },

  'GET /videos': {
    summary: 'List finished videos',
    description: "The account's finished videos, newest first, a page at a time, each with signed links to play, download and preview it.",
    responses: { 200: ok('A page of videos, newest first', pageOf(finishedVideoResponse)) } },
  'POST /videos': {
    summary: 'Start a video job',
    description:
      'Reserves one unit of the monthly allowance. `prompt` needs prompt; `motion` needs avatar_id and video_source (then reference_url, or a reference_video file); `reuse` needs reaction_id. A `reference_url` is fetched within the request (at most 100 MB and 60 s; a link to change is 400, too large 413, not a video 415, unreadable 422, a server that does not answer 503 with Retry-After) and the job keeps that clip. The reference clip, uploaded or linked, must show a face (422 `no_face` otherwise). All before anything is reserved.',
    fields: createVideoRequest,
    responses: {
      200: ok('`dry_run=true`: every check passed; the units it would reserve, the allowance now and an estimate. Nothing was made', dataOf(videoQuoteResponse)),
      202: ok('Accepted: the job, `queued` (or, for a repeated Idempotency-Key, as it is now)', dataOf(jobResponse), { data: JOB_QUEUED }),
    },
    errors: ['not_found', 'conflict', 'allowance_exhausted', 'no_face', 'upstream_unavailable'],
  },
  'GET /videos/{id}': {
    summary: 'Get a finished video',
    description:
      'A done job\'s video (its `video_id`): a 1080x1920 MP4 with signed links to play it (`url`), download it (`download_url`) and its poster frame (`thumbnail_url`), good until `url_expires_at`: ask again for fresh ones. Its file is kept until `expires_at` (the retention of the plan it was made under); after that this answers 410 `video_expired`, while GET /videos still lists it with `expired: true`.',
    responses: { 200: ok('The video, with presigned links', dataOf(finishedVideoResponse)) },
    errors: ['video_expired'],
  },
  'DELETE /videos/{id}': {
    summary: 'Delete a finished video and its files',
    description: 'The video and its files (the MP4 and its poster) are deleted; posts already handed to a provider stay there.',
    responses: { 200: gone },
  },
  'GET /videos/jobs': {
    summary: 'List video jobs',
    description: "The account's jobs, newest first, in slices: pass the answer's `meta.next_before` as `before` for the next one. Each slice costs the same however many jobs there are.",
    responses: { 200: ok('A slice of jobs, newest first', sliceOf(jobResponse)) },
  },
  'GET /videos/jobs/{id}': {
    summary: 'Get a video job',
    description:
      'Where the job stands: `status` (queued, processing, preview_ready, done, failed), the finer `stage` and `progress` (0-100). A preview job stops at `preview_ready` with a signed `preview_url` until approved or regenerated; a done job names its `video_id`; a failed one its `error`. Poll it (send the `ETag` back as `If-None-Match`: an unchanged job is 304), or take the `video.job.*` webhooks.',
    responses: { 200: ok('The job', dataOf(jobResponse)) } },
  'GET /videos/jobs/{id}/takes': {
    summary: "List a job's takes",
    description:
      "Every preview the job showed, oldest first: take 1 is the first preview, each regenerate adds the next and keeps the others, each playable while the job runs. An auto job shows no preview and has none.",
    responses: { 200: ok('The takes, oldest first', dataOf(z.array(takeResponse))) },
  },
  'POST /videos/jobs/{id}/approve': {
    summary: 'Approve a preview',
    description: 'Finishes the newest take, or the one named by `take` (400 with `param: take` for a take the job does not have); optionally with a changed caption (`hook_text: null` drops it).',
    fields: approveVideoInput,
    responses: { 202: ok('Accepted: the job, `processing`', dataOf(jobResponse), { data: JOB_COMPOSING }) },
    errors: ['conflict', 'upstream_unavailable'],
  },
  'POST /videos/jobs/{id}/regenerate': {
    summary: 'Regenerate a preview',
    description: 'Reserves one more unit. Nothing sent: the same inputs with a new seed. A new reference clip is taken as POST /videos takes one: a `reference_url` is fetched within the request, and the clip must show a face (422 `no_face`), before anything is reserved.',
    fields: regenerateVideoInput,
    responses: {
      200: ok('`dry_run=true`: every check passed; one unit would be reserved (the allowance now and an estimate). Nothing was changed', dataOf(videoQuoteResponse)),
      202: ok('Accepted: the job, `queued`', dataOf(jobResponse), { data: { ...JOB_QUEUED, regenerations: 1, charged_units: 2 } }),
    },
    errors: ['not_found', 'conflict', 'allowance_exhausted', 'no_face', 'upstream_unavailable'],
  },

  // Variant batches (an extension).
  'POST /videos/batch': {
    summary: 'Start a batch of video jobs',
    description:
      'One product, 1 to 20 variants, each the fields of POST /videos but product_id (a variant may repeat the batch\'s; another is 400). Every check of every variant runs first (a refusal names the variant, `variants[3].reaction_id`); then all the jobs and one allowance unit each are written together: an allowance that cannot cover the whole batch is 402 and nothing is made. JSON only: a motion variant\'s clip is a direct upload (`reference_video_upload_id`, each used once in a batch) or a `reference_url` (fetched within the request as POST /videos fetches it, once however many variants name it). A job whose execution cannot start is answered `failed` with nothing charged.',
    fields: createVideoBatchRequest,
    responses: {
      200: ok('`dry_run=true`: every check passed; the units it would reserve (one per variant), the allowance now and an estimate for the whole batch. Nothing was made', dataOf(videoQuoteResponse)),
      202: ok('Accepted: the batch with its jobs, `queued` (or, for a repeated Idempotency-Key, as they are now)', dataOf(videoBatchResponse)),
    },
    errors: ['not_found', 'conflict', 'allowance_exhausted', 'invalid_media', 'no_face', 'upstream_unavailable'],
  },
  'GET /videos/batches/{id}': {
    summary: 'Get a batch of video jobs',
    description: "The batch's jobs in variant order as they are now, and how many stand at each status.",
    responses: { 200: ok('The batch', dataOf(videoBatchResponse)) },
  },

  'POST /hooks': {
    summary: 'Caption ideas for a product',
    description: "Ten short captions for the video's hook, written from the product's name and description, each fitting `hook_text`. Counts against the plan's AI-helper budget (429 past it).",
    fields: hookRequest,
    responses: { 200: ok('Ten ideas', dataOf(hookIdeasResponse)) },
    errors: ['not_found', 'invalid_media', 'upstream_unavailable'],
  },
  'POST /captions/preview': {
    summary: 'Draw a caption as the video will',
    description:
      'The hook caption on a transparent 1080x1920 PNG, drawn by the renderer the videos use: the same pixels Compose lays over the reaction (and the demo, with hook_duration full). With `job_id` it keeps clear of that job\'s reaction\'s face as its video will; without, of a typical avatar\'s. Defaults as POST /videos: top, medium, outline.',
    fields: captionPreviewInput,
    responses: { 200: { description: 'The caption layer (PNG, transparent outside the caption)', contentType: 'image/png' } },
    errors: ['not_found'],
  },

  'GET /social/connections': {
    summary: 'List social connections',
    description: 'Each connected scheduling provider with the channels its key reaches (what a post names in `account_ids`) and, if the provider refused the stored key, the error; never the key itself (only `key_hint`).',
    responses: { 200: ok('Every connected provider with its channels', dataOf(z.array(connectionResponse))) },
  },
  'PUT /social/connections/{provider}': {
    summary: 'Connect a scheduling provider',
    description:
      'The key is checked with the provider first (listing the channels it reaches) and stored sealed only if the provider takes it, replacing any earlier connection of that provider (200) or making the first one (201). A key the provider refuses is 409 and nothing is stored.',
    fields: connectionInput,
    responses: { 200: ok('Replaced the earlier connection', dataOf(connectionResponse)), 201: ok('Connected', dataOf(connectionResponse)) },
    errors: ['conflict', 'rate_limited', 'upstream_unavailable'],
  },
  'DELETE /social/connections/{provider}': {
    summary: 'Disconnect a scheduling provider',
    description: 'The connection and its sealed key are deleted. Posts already handed to the provider stay there, and stay listed here.',
    responses: { 200: ok('Disconnected', dataOf(disconnectResponse)) },
    errors: ['not_found'],
  },
  'POST /social/accounts/sync': {
    summary: "Refresh a provider's channel list",
    description:
      "Asks the provider for the channels the stored key reaches now, and says which appeared and which went. Not connected, or a stored key the provider now refuses, is 409 (the latter marks the connection `error` until it is connected again); a successful listing heals it.",
    fields: channelSyncInput,
    responses: { 200: ok('The channels now, and what changed', dataOf(channelSyncResponse)) },
    errors: ['conflict', 'rate_limited', 'upstream_unavailable'],
  },
  'GET /social/posts': {
    summary: 'List posts',
    description:
      "The account's posts, newest first, a page at a time. Posts that may have moved on their own (publishing, or scheduled and due) are refreshed from their provider first; one the provider cannot be asked about now is answered as last known, with `stale: true` and the reason.",
    responses: { 200: ok('A page of posts, newest first', pageOf(postResponse)) } },
  'POST /social/posts': {
    summary: 'Publish or schedule a finished video',
    description: 'In a form body `account_ids` is one comma-separated field, `draft` is `true` or `false`, and an empty `schedule_at` means now.',
    fields: createPostInput,
    responses: { 201: ok('Handed to the provider', dataOf(postResponse)) },
    errors: ['not_found', 'conflict', 'video_expired', 'rate_limited', 'upstream_unavailable'],
  },
  'GET /social/posts/{id}': {
    summary: 'Get a post, refreshed from its provider',
    description:
      "A post not yet final is asked of its provider and what it says is kept, with each channel's result. A read never fails for provider trouble: the last known state is answered with `stale: true` and the reason.",
    responses: { 200: ok('The post', dataOf(postResponse)) } },
  'DELETE /social/posts/{id}': {
    summary: 'Delete a post at its provider',
    description:
      "The provider's rule for deleting is applied to the post's state as the provider has it now (409 naming the rule otherwise); then it is deleted upstream and kept here with status `deleted`. Deleting it again asks nothing upstream.",
    responses: { 200: gone },
    errors: ['conflict', 'rate_limited', 'upstream_unavailable'],
  },

  'GET /analytics': {
    summary: 'Analytics from the last syncs',
    description:
      'Views, likes, comments, shares and posts over the last `days` UTC days, added up and per day, per provider and overall, from what the last POST /analytics/sync stored; then per video, per hook and per channel (`by_video`, `by_hook`, `by_channel`, most views first) and the hook that drew the most views (`best_hook`). Posts made in the studio name their video and hook; others count for their channel alone. No provider is asked, so it is fast and never fails upstream; `covers_window` says whether a provider\'s last sync reached back far enough.',
    responses: { 200: ok('The window, added up and broken down', dataOf(analyticsOverviewResponse)) } },
  'POST /analytics/sync': {
    summary: 'Pull analytics from every connected provider',
    description:
      'Every connected provider is asked at once and what each answered is stored. One failing is reported in its entry (`status: failed`) and keeps its earlier figures; one that could read only some channels is `ok` with `skipped_accounts`. A few syncs an hour per account (429 with Retry-After past them): each spends quota at every provider.',
    responses: { 200: ok('What each provider answered, and the overview after it', dataOf(analyticsSyncResponse)) },
  },

  'GET /usage': {
    summary: 'Plan and allowance usage',
    description:
      "The plan in force and this billing period's counters: videos used and reserved (a running job holds its unit until it ends) against the monthly allowance, saved reactions and avatars against their caps.",
    responses: { 200: ok('The counters', dataOf(usageResponse)) } },

  'GET /plans': {
    summary: 'The plans: prices and limits',
    description: 'Public: no credential. `billing` says how a paid plan is taken on this deployment.',
    responses: { 200: ok('Every plan, and how paid plans are taken here', dataOf(plansResponse)) },
  },
  'PUT /account/plan': {
    summary: "Change the account's plan (the studio's session only)",
    description:
      "Only with the signed-in owner's session cookie (and its X-CSRF-Token); an API key is 403. An upgrade holds at once: the larger allowance and caps apply now, and the units used this period still count. A downgrade waits for the next billing period (a calendar month, UTC): the account shows it as `pending_plan` and `plan_changes_at`, and asking for the plan in force again cancels it. With Stripe (`billing: stripe` in GET /plans), a paid plan without a subscription answers 202 with `checkout_url` and changes nothing until Stripe confirms the payment; a subscription already there is changed in place (an upgrade is charged at once: a declined card is 402 payment_failed). Without a payment provider a paid plan is 409 billing_not_configured. One change at a time: a change while another is under way is 409 with Retry-After.",
    fields: changePlanInput,
    responses: {
      200: ok('Changed (or scheduled, or already so)', dataOf(planChangeResponse)),
      202: ok('Pay at `checkout_url` first; the account changes when the payment is confirmed', dataOf(planChangeResponse)),
    },
    errors: ['payment_failed', 'not_found', 'conflict', 'billing_not_configured', 'upstream_unavailable'],
  },
  'POST /billing/stripe/webhook': {
    summary: "Stripe's events (Stripe calls this; configure it as the endpoint's URL)",
    description:
      "No credential: the `Stripe-Signature` header must sign the raw body with the endpoint's signing secret (else 400). checkout.session.completed, customer.subscription.updated and customer.subscription.deleted move the account's plan by the same rules as PUT /account/plan; each event id is applied once, and a redelivery is answered 200 with `result: duplicate`. 404 where no Stripe is configured.",
    fields: stripeEventInput,
    responses: { 200: ok('Received', dataOf(stripeWebhookResponse)) },
    errors: ['not_found', 'upstream_unavailable'],
  },

  'POST /engines/fal/callbacks/{ticket}': {
    summary: "fal.ai's completion webhook for a job generating on the hosted engine (fal calls this; the service gives it the URL)",
    description:
      "No credential: the ticket in the path names the job and carries a secret drawn for its round, which only the URL given to fal holds (anything else is 404, and nothing changes). It resumes the job's execution, which then asks fal for the result by the request id it kept; the body is never taken as the result. 409 while the step that submitted is still running: fal delivers again. A request the job no longer waits for is answered 200 with `result: ignored`.",
    fields: falCallbackInput,
    responses: { 200: ok('Received', dataOf(providerCallbackResponse)) },
    errors: ['not_found', 'conflict', 'upstream_unavailable'],
  },

  'POST /auth/signup': {
    summary: 'Sign up: a new account on the free plan, signed in',
    description:
      'Passwords are 10 to 200 characters and not one of the most common; the email is trimmed and lower-cased. The answer sets the `rs_session` cookie (HttpOnly, SameSite=Lax). An email that already has an account is 409. At most 30 sign-up and sign-in requests per client address per minute (429 with Retry-After).',
    fields: signUpInput,
    responses: { 201: ok('Signed up and in; the session cookie comes with it', dataOf(signedInResponse)) },
    errors: ['conflict', 'rate_limited'],
  },
  'POST /auth/login': {
    summary: 'Sign in',
    description:
      'A wrong password and an unknown email are the same 401. At most 10 attempts per email per 15 minutes and 30 sign-up and sign-in requests per client address per minute (429 with Retry-After).',
    fields: logInInput,
    responses: { 200: ok('Signed in; the session cookie comes with it', dataOf(signedInResponse)) },
    errors: ['unauthorized', 'rate_limited'],
  },
  'POST /auth/logout': {
    summary: 'Sign out: the session is revoked and its cookie cleared',
    description: 'The session ends at once: its cookie, even if kept, is 401 from then on. Other sessions of the user stay signed in.',
    responses: { 200: ok('Signed out', dataOf(signedOutResponse)) } },
  'GET /auth/session': {
    summary: 'The signed-in user, account and CSRF token',
    description: 'What the studio reads on load: who is signed in, their account, when the session ends, and the `csrf_token` to send as X-CSRF-Token with every change made with the cookie. No session, or an ended one, is 401.',
    responses: { 200: ok('The session', dataOf(sessionResponse)) },
  },
  'POST /auth/password': {
    summary: 'Change the password; every other session of the user is signed out',
    description: 'A wrong `current_password` is 403 and counts against the email\'s sign-in attempts; a `new_password` outside the policy is 400.',
    fields: changePasswordInput,
    responses: { 200: ok('Changed', dataOf(passwordChangedResponse)) },
  },
  'POST /auth/password-reset': {
    summary: 'Ask for a password-reset link by mail',
    description:
      "Always 202 with the same body, whether or not the email has an account. If it has, a link to the studio's reset page (`/reset-password?token=…`) is mailed to it; the link works for 30 minutes and once, and asking again replaces it. At most 5 requests per email an hour and 30 sign-up, sign-in and reset requests per client address per minute (429 with Retry-After). A malformed email is 400.",
    fields: passwordResetRequestInput,
    responses: { 202: ok('Accepted: a link is on its way if the email has an account', dataOf(passwordResetRequestedResponse)) },
    errors: ['rate_limited'],
  },
  'POST /auth/password-reset/confirm': {
    summary: "Set a new password with a mailed link's token, and sign in",
    description:
      'The token of a link that is unknown, used, replaced by a newer one or past its 30 minutes is 400 with `param: token`; a password outside the policy (10 to 200 characters, not one of the most common) is 400 with `param: password`, and the link keeps working. Success spends the link (of two confirms with one token exactly one succeeds), signs every other session of the user out and answers with a new session cookie.',
    fields: passwordResetConfirmInput,
    responses: { 200: ok('The password is set; signed in', dataOf(passwordResetResponse)) },
    errors: ['rate_limited'],
  },
  'GET /account': {
    summary: 'The account',
    description: 'Its name, the plan in force and any downgrade waiting for the next billing period.',
    responses: { 200: ok('The account', dataOf(accountResponse)) } },
  'GET /keys': {
    summary: "The account's API keys (never the keys themselves)",
    description: "Studio session only (an API key is 403). Every key with its name, `prefix` (its first characters, to tell keys apart), scopes and when it was last used; revoked keys too, with `revoked_at`.",
    responses: { 200: ok('Every key, revoked ones too', dataOf(z.array(apiKeyResponse))) } },
  'POST /keys': {
    summary: 'Make an API key',
    description: 'Without `scopes` the key gets every scope (read, write, publish). The key is in this answer only.',
    fields: createKeyInput,
    responses: { 201: ok('The key, shown once', dataOf(createdApiKeyResponse)) },
  },
  'DELETE /keys/{id}': {
    summary: 'Revoke an API key: the next request with it is 401',
    description: 'Studio session only (an API key is 403). The key stays listed, with `revoked_at`; it cannot be turned back on: make another.',
    responses: { 200: ok('Revoked', dataOf(revokedApiKeyResponse)) },
  },

  'POST /updates/tickets': {
    summary: 'A ticket for a live-updates WebSocket',
    description:
      'Jobs, products (their demo) and avatars pushed as they change, instead of polling (docs/live-updates.md). Open `url` with `?ticket=<ticket>` within a minute (once: a ticket opens one connection), then send `{"action": "subscribe", "resource": "job", "id": 7}`; the answer `subscribed` carries the record as its GET answers it, and each change comes as `{"type": "update", "resource", "id", "data"}` with `data` the same. A key (scope `read`) or the studio session (with `X-CSRF-Token`) takes one; a test key\'s socket follows test records only.',
    responses: { 201: ok('The ticket and where to connect', dataOf(updateTicketResponse)) },
  },
  'POST /uploads': {
    summary: 'Upload a file straight to storage',
    description:
      'For files past what a request body carries (on AWS about 4 MB). Declare the purpose, media type and size; send the file with the answer within the hour (`POST`: a multipart form with every `fields` entry, then the file as `file`; `PUT`: the raw bytes with `headers`), then name the id where the file would go: `demo_video_upload_id` (POST /products), `image_upload_id` (POST /avatars), `reference_video_upload_id` (POST /videos, regenerate), `audio_upload_id` (POST /music). An upload is used once: the same checks as a file part run on it then; an unknown, foreign or expired id is 404, a used one 409, one of another purpose 400, a file larger than declared 413.',
    fields: createUploadInput,
    responses: { 201: ok('The form to send the file with', dataOf(uploadResponse)) },
  },

  'GET /webhooks': {
    summary: "The account's webhook endpoints (never their secrets)",
    description: 'Every endpoint, oldest first, with the event types it takes and whether it is enabled (and, if the service disabled it, why). The document\'s `webhooks` section describes each event\'s body.',
    responses: { 200: ok('Every endpoint, oldest first', dataOf(z.array(webhookResponse))) } },
  'POST /webhooks': {
    summary: 'Add a webhook endpoint',
    description:
      'Events go to `url` as signed POSTs (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one such entry per secret, space-separated, while a rotated-out secret still signs), body `{id, type, created_at, data}` with `data` the record as its GET answers it. `events` names the types to send, or is `["*"]` for every type, those added later included. https only; the host must resolve to public addresses, checked now and on every attempt; redirects are not followed. A 2xx within 10 s is success; otherwise retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. A 410 Gone, or 3 days of failures, disables the endpoint. At most 10 per account (409 past that).',
    fields: createWebhookInput,
    responses: { 201: ok('The endpoint with its signing secret, shown only here', dataOf(createdWebhookResponse)) },
    errors: ['conflict'],
  },
  'GET /webhooks/events': {
    summary: "The account's events, as their deliveries carry them",
    description:
      'Every event the account raised (pings aside), whether or not an endpoint takes it, in the order they were raised, each once it was fanned out: ' +
      'without `after`, the newest `limit`; with it, those raised after that one (follow new events by passing `meta.next_after` back), ' +
      'stopping before an event still waiting to be fanned out, so following the list never steps over one. Events are kept 7 days. ' +
      'What `reaction-studio webhooks listen` polls to forward events to a local URL.',
    responses: { 200: ok('Events, oldest first', sentEventsResponse) },
  },
  'GET /webhooks/{webhook_id}': {
    summary: 'Get a webhook endpoint',
    description: 'Its URL, the event types it takes, whether it is enabled, and until when a rotated-out secret still signs beside the current one. Never the secret.',
    responses: { 200: ok('The endpoint', dataOf(webhookResponse)) } },
  'PATCH /webhooks/{webhook_id}': {
    summary: 'Change a webhook endpoint',
    description: '`enabled: true` turns an endpoint the service disabled back on and clears its failure streak; a new `url` is vetted as at creation.',
    fields: updateWebhookInput,
    responses: { 200: ok('The updated endpoint', dataOf(webhookResponse)) },
  },
  'POST /webhooks/{webhook_id}/rotate-secret': {
    summary: "Rotate an endpoint's signing secret",
    description:
      'A new secret, shown only in this answer. The one it replaces keeps signing beside it for `expires_in_s` (24 h unless given, at most 7 days, 0 ends it at once): ' +
      'each delivery then carries both signatures in `webhook-signature`, so a receiver verifies with either and can switch when it likes. ' +
      'Only one previous secret is kept: rotating again ends the older overlap at once. Takes an Idempotency-Key: the secret is kept in clear anyway (deliveries are signed with it), so a replayed answer keeps nothing new. ' +
      'Two rotations at once: one is 409.',
    fields: rotateSecretInput,
    responses: { 200: ok('The endpoint with its new secret', dataOf(rotatedWebhookResponse)) },
    errors: ['conflict'],
  },
  'DELETE /webhooks/{webhook_id}': {
    summary: 'Delete a webhook endpoint: its pending deliveries fail',
    description: 'Nothing more is sent to it, retries included. Events go on being raised for the account\'s other endpoints and stay listed in GET /webhooks/events.',
    responses: { 200: ok('Deleted', dataOf(deletedWebhookResponse)) } },
  'GET /webhooks/{webhook_id}/deliveries': {
    summary: "An endpoint's deliveries, newest first",
    description: `Each with its attempts (automatic and manual, oldest first), the last answer and when the next automatic attempt is due. Kept 30 days.`,
    responses: { 200: ok('One page of deliveries', pageOf(webhookDeliveryResponse)) },
  },
  'POST /webhooks/{webhook_id}/deliveries/{delivery_id}/retry': {
    summary: 'Send a delivery again now',
    description:
      'One attempt, sent within this request (up to 10 s), whatever the delivery became (succeeded, failed, or waiting for a retry): the same event id and body, signed anew. ' +
      'The retry schedule is left alone: a pending delivery keeps its next automatic attempt, at its time and with its number. A success settles the delivery (a pending one\'s later events follow); a failure leaves it as it was. ' +
      'A disabled endpoint is 409 (turn it back on first), except for a ping.',
    // 202 as the contract has it: the attempt is made, though its outcome is in the answer.
    responses: { 202: ok('The delivery, this attempt last among its `attempts`', dataOf(webhookDeliveryResponse)) },
    errors: ['conflict'],
  },
  'POST /webhooks/{webhook_id}/test': {
    summary: 'Send a ping event to this endpoint',
    description: 'A `ping` with the endpoint as its data, to this endpoint only, enabled or not.',
    responses: { 202: ok('The ping is queued', dataOf(testEventResponse)) },
  },
};

export const keyOf = (route: Pick<RouteDefinition, 'method' | 'path'>): ContractKey => `${route.method} ${route.path}` as ContractKey;

/** The contract of a route; a route without one (or a body without fields) fails the build of the document. */
export function contractOf(route: RouteDefinition): RouteContract {
  const contract = CONTRACTS[keyOf(route)];
  if (!contract) throw new Error(`route ${keyOf(route)} has no contract in route-contracts.ts`);
  if (route.body && !contract.fields) throw new Error(`route ${keyOf(route)} takes a body but its contract names no fields`);
  return contract;
}

/** Contracts that name no route of the table (a route renamed or removed without its contract). */
export function contractsWithoutRoute(): string[] {
  const routes = new Set(ROUTES.map(keyOf));
  return Object.keys(CONTRACTS).filter((key) => !routes.has(key as ContractKey));
}
