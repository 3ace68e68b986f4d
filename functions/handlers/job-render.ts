import { pipelineHandler, type PipelinePorts } from '#pipeline/run-step';
import type { TasksOf } from '#pipeline/steps';
import { generateReaction } from '#pipeline/tasks/generate-reaction';
import { renderPreview } from '#pipeline/tasks/render-preview';
import { compose } from '#pipeline/tasks/compose';
import type { PortSource } from '#ports/ports';
import { dynamoStores } from '#adapters/dynamodb/stores';
import { lambdaPorts } from '#wiring/lambda';
import { configuredEngines } from '#adapters/engines/configured';
import { referenceResolver } from '#adapters/reference/reference-resolver';
import { xrayCapture } from '#adapters/xray/sdk-capture';
import { FfmpegVideoComposer } from '#adapters/media/ffmpeg-video-composer';
import { lambdaClipFaces } from '#adapters/lambda/face-check-client';
import { BlobStockAvatars } from '#adapters/samples/blob-stock-avatars';
import { renderAvatarPng } from '#render';

/** The generation and ffmpeg steps. */
export const tasks = {
  generate_reaction: generateReaction,
  render_preview: renderPreview,
  compose,
} satisfies TasksOf<'render'>;

export const createHandler = (ports: PortSource<PipelinePorts<typeof tasks>>) => pipelineHandler('render', tasks, ports);

/**
 * Only this function generates and encodes: the engines, the reference resolver and the composer are
 * bundled here, not in the base wiring. Its SDK calls are traced too (adapters/xray): clip transfers and engine calls are where its time goes.
 * A hosted engine's clip comes without its face box: the face-check function finds it (the image
 * carries the face runtime only for the local engine, which reports the box itself).
 */
export const handler = createHandler(
  lambdaPorts(
    ({ common, table }) => ({
      ...common,
      ...dynamoStores(table()),
      engines: configuredEngines({ blobs: common.blobs }),
      references: referenceResolver(),
      composer: new FfmpegVideoComposer(),
      faces: lambdaClipFaces(),
      // A hosted engine is handed a stock avatar's portrait, drawn here (sharp) if nothing drew it yet.
      stockAvatars: new BlobStockAvatars(common.blobs, renderAvatarPng),
    }),
    xrayCapture,
  ),
);
