/**
 * What Approve sends: the take chosen (when the job has several), and only the caption and sound
 * changes against what made that take, so an unchanged caption lets the API reuse the preview
 * without encoding anything (docs/decisions.md, Takes: the overrides apply on top of the take's).
 */
import type { Job, paths } from '#client/types';
import type { Caption } from '../create/caption';
import { soundOverride, type SoundChoice } from '../create/sound';

export type ApproveBody = NonNullable<paths['/videos/jobs/{id}/approve']['post']['requestBody']>['content']['application/json'];

/** What made the preview being approved: the job as it stands, or an earlier take's options. */
export type ApproveBase = Pick<Job, 'hook_text' | 'hook_position' | 'hook_size' | 'hook_style' | 'hook_duration' | 'sound' | 'music_id'>;

/** The body, or what is still missing in words (a music track). `take`: the take named, when the job has several. */
export function approveBody(base: ApproveBase, caption: Caption, sound: SoundChoice, take?: number): ApproveBody | string {
  const soundChange = soundOverride(sound, base);
  if (typeof soundChange === 'string') return soundChange;
  const body: ApproveBody = { ...(take !== undefined ? { take } : {}), ...soundChange };
  const text = caption.text.trim();
  if (text !== (base.hook_text ?? '')) body.hook_text = text || null;
  if (caption.position !== base.hook_position) body.hook_position = caption.position;
  if (caption.size !== base.hook_size) body.hook_size = caption.size;
  if (caption.style !== base.hook_style) body.hook_style = caption.style;
  if (caption.duration !== base.hook_duration) body.hook_duration = caption.duration;
  return body;
}
