/**
 * A caption as a PNG, drawn by the renderer the videos use, so what a client previews is what the
 * video shows: for a job, clear of that job's reaction's face (as Compose draws it); otherwise clear
 * of a typical avatar's face.
 */
import { notFound } from '#domain/errors';
import { captionOf, JOB_DEFAULTS } from '#domain/jobs';
import type { CaptionPreviewInput } from '#domain/schemas/captions';
import type { Ports } from '#ports/ports';

export type PreviewCaptionDeps = Pick<Ports, 'jobs' | 'captionImages'>;

export async function previewCaption(deps: PreviewCaptionDeps, input: { accountId: number; caption: CaptionPreviewInput }): Promise<Buffer> {
  const { caption } = input;
  const look = {
    text: caption.text,
    position: caption.position ?? JOB_DEFAULTS.hookPosition,
    size: caption.size ?? JOB_DEFAULTS.hookSize,
    style: caption.style ?? JOB_DEFAULTS.hookStyle,
  };
  if (caption.job_id === undefined) return deps.captionImages.draw({ ...look, avoid: deps.captionImages.typicalFaceBox });
  const job = await deps.jobs.get(input.accountId, caption.job_id);
  if (!job) throw notFound('Job');
  // The job's own caption rule, with the asked look: the same spec Compose would draw.
  return deps.captionImages.draw(captionOf({ ...job, hook_text: look.text, hook_position: look.position, hook_size: look.size, hook_style: look.style })!);
}
