/**
 * Ports a Lambda function gets only when its handler module adds the adapter: the engines and the
 * reference resolver load heavy and native modules, and every function bundles what its entry imports.
 * Reaching one that was not added is a wiring bug, said as such.
 */
import type { Ports, PortSource } from '#ports/ports';
import type { Engines } from '#ports/engines';
import type { ReferenceResolver } from '#ports/reference-resolver';
import type { MediaInspector } from '#ports/media-inspector';
import type { DemoMedia } from '#ports/demo-media';
import type { AvatarImages } from '#ports/avatar-images';
import type { CaptionImages } from '#ports/caption-images';
import type { CredentialCipher } from '#ports/credential-cipher';
import type { RemoteFiles } from '#ports/remote-files';
import type { WebhookReceivers } from '#ports/webhook-receivers';
import type { MusicMedia } from '#ports/music-media';
import type { FaceFinder } from '#ports/face-finder';
import type { VideoComposer } from '#ports/video-composer';
import type { SampleDemo } from '#ports/sample-demo';
import type { StockAvatars } from '#ports/stock-avatars';
import type { Mailer } from '#ports/mailer';
import type { Billing } from '#ports/billing';

const notBundled = (port: string) => (): never => {
  throw new Error(`${port} is not bundled with this function: its handler module must add it to the dependencies`);
};

export const enginesNotBundled: Engines = {
  avatar: notBundled('the avatar engine'),
  inlineAvatar: notBundled('the inline avatar engine'),
  // Without an avatar engine nothing generates within the request.
  avatarIsInline: false,
  reaction: notBundled('the reaction engine'),
  hooks: notBundled('the hook engine'),
};

export const referencesNotBundled: ReferenceResolver = { name: 'not-bundled', resolve: notBundled('the reference resolver') };

export const remoteFilesNotBundled: RemoteFiles = { download: notBundled('the linked-file downloader') };

export const mediaNotBundled: MediaInspector = { inspectReference: notBundled('the media inspector') };

export const demoMediaNotBundled: DemoMedia = { inspect: notBundled('the demo media tools'), normalise: notBundled('the demo media tools') };

export const avatarImagesNotBundled: AvatarImages = { prepare: notBundled('the avatar image tools') };

export const facesNotBundled: FaceFinder = { faceInImage: notBundled('the face finder'), clipShowsFace: notBundled('the face finder'), faceBoxInClip: notBundled('the face finder') };

export const captionImagesNotBundled: CaptionImages = {
  draw: notBundled('the caption renderer'),
  get typicalFaceBox(): CaptionImages['typicalFaceBox'] {
    return notBundled('the caption renderer')();
  },
};

export const composerNotBundled: VideoComposer = {
  captionSegment: notBundled('the video composer'),
  join: notBundled('the video composer'),
  poster: notBundled('the video composer'),
  defaultPosterTimeS: notBundled('the video composer'),
};

export const musicMediaNotBundled: MusicMedia = { ingest: notBundled('the music tools') };

export const sampleDemoNotBundled: SampleDemo = { find: notBundled('the sample clip'), make: notBundled('the sample clip') };

export const stockAvatarsNotBundled: StockAvatars = { list: notBundled('the stock avatars'), get: notBundled('the stock avatars'), ensureImages: notBundled('the stock avatars') };

/** Until the render wing's sound bank is wired (functions/render/sound), a built-in track's file cannot be made. */

export const webhookReceiversNotBundled: WebhookReceivers = { vet: notBundled('the webhook sender'), send: notBundled('the webhook sender') };

export const mailerNotBundled: Mailer = { send: notBundled('the mailer') };

export const socialNotBundled: Ports['social'] = notBundled('the social providers');

export const billingNotBundled: Billing = { kind: 'not_configured', prepareChange: notBundled('the billing adapter'), readEvent: notBundled('the billing adapter') };

export const cipherNotBundled: CredentialCipher = { kind: 'kms', seal: notBundled('the credential cipher'), open: notBundled('the credential cipher') };

/** `base` with the parts a handler module adds, built once on first use like the base itself. */
export function withParts(base: PortSource, parts: (built: Ports) => Partial<Ports>): PortSource {
  let built: Ports | undefined;
  return () => {
    if (!built) {
      const from = base();
      built = { ...from, ...parts(from) };
    }
    return built;
  };
}
