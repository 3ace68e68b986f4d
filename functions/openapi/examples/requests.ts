/**
 * An example body of every operation that takes one, keyed as the contracts are (`POST /videos`), each
 * of the type its schema parses: the JSON and form bodies show `json`; a multipart body shows
 * `multipart` where it differs (a file part is shown by its name, as a form field holds it).
 */
import type * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import { createProductInput, createSampleProductInput, updateProductInput } from '#domain/schemas/product';
import { createAvatarInput } from '#domain/schemas/avatar';
import { addMusicFromUpload } from '#domain/schemas/music';
import { saveReactionInput } from '#domain/schemas/reaction';
import { approveVideoInput, regenerateVideoInput } from '#domain/schemas/video';
import { createVideoBatchRequest, createVideoRequest } from '#domain/schemas/video-variants';
import { hookRequest } from '#domain/schemas/hooks';
import { captionPreviewInput } from '#domain/schemas/captions';
import { channelSyncInput } from '#domain/schemas/social';
import { changePlanInput, stripeEventInput } from '#domain/schemas/plans';
import { falCallbackInput } from '#domain/schemas/provider-callback';
import { changePasswordInput, createKeyInput, logInInput, passwordResetConfirmInput, passwordResetRequestInput, signUpInput } from '#domain/schemas/accounts';
import { createUploadInput } from '#domain/schemas/upload';
import { createWebhookInput, rotateSecretInput, updateWebhookInput } from '#domain/schemas/webhooks';
import { connectionInput } from '#domain/social';
import { createPostInput } from '#domain/social-post';
import { IDS, UPLOAD_ID } from './sample';

export interface NamedExample {
  summary: string;
  value: unknown;
}
type Named<S extends ZodMiniType> = Record<string, { summary: string; value: z.input<S> }>;

export interface RequestExamples {
  json: Record<string, NamedExample>;
  multipart?: Record<string, NamedExample>;
}

/** Examples of one schema's bodies: tsc checks each is of its input type. */
const of = <S extends ZodMiniType>(_schema: S, json: Named<S>): RequestExamples => ({ json });
/** As `of`, with the multipart bodies (file parts as their names) apart. */
const withFiles = <S extends ZodMiniType>(_schema: S, json: Named<S>, multipart: Record<string, NamedExample>): RequestExamples => ({ json, multipart });

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'maya@glowlabs.example';

export const REQUEST_EXAMPLES: Readonly<Record<string, RequestExamples>> = {
  'POST /products': withFiles(
    createProductInput,
    {
      link: { summary: 'A demo linked', value: { name: 'Glow Serum', description: 'A vitamin C serum that fades dark spots in two weeks', demo_video_url: 'https://cdn.glowlabs.example/serum-demo.mp4' } },
      upload: { summary: 'A landscape demo sent before, blurred to portrait and trimmed', value: { name: 'Glow Serum', demo_video_upload_id: UPLOAD_ID, reframe: 'blur', demo_start_s: 2, demo_end_s: 16 } },
    },
    { file: { summary: 'The demo as a file part', value: { name: 'Glow Serum', demo_video: 'serum-demo.mp4' } } },
  ),
  'POST /products/sample': of(createSampleProductInput, { empty: { summary: 'No fields', value: {} } }),
  'PATCH /products/{id}': of(updateProductInput, { describe: { summary: 'A new description', value: { description: 'Fades dark spots in two weeks; vegan, fragrance-free' } } }),
  'PUT /products/{id}': of(updateProductInput, { rename: { summary: 'A new name', value: { name: 'Glow Serum 2.0' } } }),
  'POST /avatars': withFiles(
    createAvatarInput,
    {
      prompt: { summary: 'Generated from a prompt', value: { prompt: 'A woman in her twenties with curly hair, in a bright kitchen, looking into the camera' } },
      upload: { summary: 'A photo sent before (POST /uploads)', value: { image_upload_id: UPLOAD_ID } },
      link: { summary: 'A photo linked', value: { image_url: 'https://cdn.glowlabs.example/team/maya.jpg' } },
    },
    { file: { summary: 'A photo as a file part', value: { image: 'maya.jpg' } } },
  ),
  'POST /music': withFiles(
    addMusicFromUpload,
    { upload: { summary: 'A track sent before (POST /uploads)', value: { audio_upload_id: UPLOAD_ID, name: 'Brand jingle' } } },
    { file: { summary: 'The track as a file part', value: { name: 'Brand jingle', audio: 'jingle.mp3' } } },
  ),
  'POST /reactions': of(saveReactionInput, { save: { summary: "A preview job's reaction", value: { job_id: IDS.job } } }),
  'POST /videos': withFiles(
    createVideoRequest,
    {
      prompt: {
        summary: 'A reaction from a prompt, with a preview to approve',
        value: { product_id: IDS.product, method: 'prompt', mode: 'preview', avatar_id: IDS.avatar, prompt: 'She gasps, then laughs in disbelief', hook_text: 'I did not expect this to work' },
      },
      motion: {
        summary: "A reference clip's motion, performed by an avatar",
        value: { product_id: IDS.product, method: 'motion', avatar_id: IDS.avatar, video_source: 'link', reference_url: 'https://www.tiktok.com/@creator/video/7311234567890123456', hook_text: 'POV: your skin after 14 days', sound: 'music', music_id: 'sunny-pop' },
      },
      reuse: { summary: 'A saved reaction, straight to the video', value: { product_id: IDS.product, method: 'reuse', mode: 'auto', reaction_id: IDS.reaction, hook_text: 'Two weeks. That is all it took.' } },
    },
    {
      file: {
        summary: 'A reference clip as a file part',
        value: { product_id: IDS.product, method: 'motion', avatar_id: IDS.avatar, video_source: 'upload', reference_video: 'reference.mp4', hook_text: 'POV: your skin after 14 days' },
      },
    },
  ),
  'POST /videos/jobs/{id}/approve': of(approveVideoInput, {
    newest: { summary: 'The newest take as it is', value: {} },
    changed: { summary: 'The first take, with another caption', value: { take: 1, hook_text: 'Two weeks. That is all it took.', hook_style: 'box' } },
  }),
  'POST /videos/jobs/{id}/regenerate': of(regenerateVideoInput, {
    again: { summary: 'The same inputs, a new seed', value: {} },
    prompt: { summary: 'Another prompt', value: { prompt: 'She squints at the bottle, then grins', voice_line: 'No way!' } },
  }),
  'POST /videos/batch': of(createVideoBatchRequest, {
    variants: {
      summary: 'Two variants of one product',
      value: {
        product_id: IDS.product,
        variants: [
          { method: 'prompt', prompt: 'She gasps, then laughs in disbelief', hook_text: 'I did not expect this to work' },
          { method: 'reuse', mode: 'auto', reaction_id: IDS.reaction, hook_text: 'POV: your skin after 14 days' },
        ],
      },
    },
  }),
  'POST /hooks': of(hookRequest, { product: { summary: 'Ideas for a product', value: { product_id: IDS.product } } }),
  'POST /captions/preview': of(captionPreviewInput, {
    caption: { summary: "A caption clear of a job's face", value: { text: 'I did not expect this to work', position: 'top', size: 'medium', style: 'box', job_id: IDS.job } },
  }),
  'PUT /social/connections/{provider}': of(connectionInput, { key: { summary: "The provider's API key", value: { api_key: 'AYR-7H2K-9QXM-4LPD-3WTN' } } }),
  'POST /social/accounts/sync': of(channelSyncInput, { provider: { summary: 'One provider', value: { provider: 'provider_a' } } }),
  'POST /social/posts': of(createPostInput, {
    now: { summary: 'Published now', value: { provider: 'provider_a', video_id: IDS.video, account_ids: ['acc_tt_82731', 'acc_ig_19284'], caption: 'Two weeks, one serum #skincare' } },
    later: { summary: 'Scheduled', value: { provider: 'provider_a', video_id: IDS.video, account_ids: ['acc_tt_82731'], caption: 'Two weeks, one serum', schedule_at: '2026-11-26T17:00:00Z' } },
  }),
  'PUT /account/plan': of(changePlanInput, { upgrade: { summary: 'An upgrade', value: { plan: 'pro' } } }),
  'POST /engines/fal/callbacks/{ticket}': of(falCallbackInput, {
    completed: { summary: 'A request of the job ended', value: { request_id: '764cabcf-b745-4b3e-ae38-1200304cf45b', status: 'OK' } },
  }),
  'POST /billing/stripe/webhook': of(stripeEventInput, {
    checkout: { summary: 'A paid checkout', value: { id: 'evt_1QxY2zAbCdEfGhIjKlMnOpQr', type: 'checkout.session.completed', data: { object: { id: 'cs_test_a1B2c3D4e5F6' } } } },
  }),
  'POST /auth/signup': of(signUpInput, { signup: { summary: 'A new account', value: { email: EMAIL, password: PASSWORD, name: 'Maya' } } }),
  'POST /auth/login': of(logInInput, { login: { summary: 'Email and password', value: { email: EMAIL, password: PASSWORD } } }),
  'POST /auth/password': of(changePasswordInput, { change: { summary: 'The old and the new', value: { current_password: PASSWORD, new_password: 'purple elephants dance at noon' } } }),
  'POST /auth/password-reset': of(passwordResetRequestInput, { email: { summary: 'The account email', value: { email: EMAIL } } }),
  'POST /auth/password-reset/confirm': of(passwordResetConfirmInput, {
    confirm: { summary: "The mailed link's token and a new password", value: { token: 'rst_Vq3nK8pL2xZ7mB4cW9dF1hJ6', password: 'purple elephants dance at noon' } },
  }),
  'POST /keys': of(createKeyInput, { ci: { summary: 'A key that reads and writes', value: { name: 'CI pipeline', scopes: ['read', 'write'] } } }),
  'POST /uploads': of(createUploadInput, {
    demo: { summary: 'A demo video', value: { purpose: 'demo_video', content_type: 'video/mp4', size_bytes: 48_000_000, filename: 'serum-demo.mp4' } },
  }),
  'POST /webhooks': of(createWebhookInput, {
    jobs: { summary: 'Finished and failed jobs', value: { url: 'https://hooks.glowlabs.example/reaction-studio', events: ['video.job.done', 'video.job.failed'], description: 'Order fulfilment' } },
    all: { summary: 'Every event type', value: { url: 'https://hooks.glowlabs.example/everything', events: ['*'] } },
  }),
  'PATCH /webhooks/{webhook_id}': of(updateWebhookInput, { enable: { summary: 'Turned back on', value: { enabled: true } } }),
  'POST /webhooks/{webhook_id}/rotate-secret': of(rotateSecretInput, { day: { summary: 'The old secret signs for another day', value: { expires_in_s: 86_400 } } }),
};
