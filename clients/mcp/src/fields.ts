/** Input fields several tools share, described for the model. */
import * as z from 'zod';

export const id = (what: string) => z.number().int().positive().describe(`The ${what}'s id`);

export const uploadId = (purpose: string) => z.string().describe(`The id of an upload made with create_upload (purpose ${purpose}) whose file has been sent`);

export const hookFields = {
  hook_text: z.string().min(1).max(100).describe('The caption shown over the reaction (suggest_hooks gives ideas)').optional(),
  hook_position: z.enum(['top', 'middle', 'bottom']).describe('Where the caption sits (default top); it keeps clear of the face and the apps\' UI either way').optional(),
  hook_size: z.enum(['small', 'medium', 'large']).describe('The caption\'s type size (default medium); a long caption steps down to fit').optional(),
  ...hookLook(),
};

/** How the caption looks and how long it stays; approve and regenerate take them too. */
export function hookLook() {
  return {
    hook_style: z
      .enum(['outline', 'box', 'highlight', 'glow', 'bold_caps'])
      .describe('outline (default): white with a dark outline; box: dark text on a white box, as TikTok\'s own; highlight: key words on a colour band; glow; bold_caps: uppercase, heavy')
      .optional(),
    hook_duration: z
      .enum(['reaction', 'full'])
      .describe('reaction (default): the caption shows over the reaction; full: it stays over the demo too (composing takes longer)')
      .optional(),
  };
}

/** The video's sound; left out, a create gets auto and an approve or regenerate keeps the job's. */
export const soundFields = {
  sound: z
    .enum(['auto', 'music', 'none'])
    .describe('auto: a sound effect matched to the reaction, then the demo\'s audio; music: music_id plays under the video, quieter under the demo; none: the demo\'s audio only')
    .optional(),
  music_id: z
    .string()
    .max(40)
    .describe('A track from list_music (a built-in id like "sunny-pop" or one of the account\'s, "t12"); alone it means sound music, and only sound music takes one')
    .optional(),
};

export const voiceLine = {
  voice_line: z.string().min(1).max(100).describe('A line the person says during the reaction (at most 100 characters); not for method reuse').optional(),
};

export const avatarSource = {
  avatar_id: id('avatar (method motion)').optional(),
  video_source: z.enum(['link', 'upload']).describe('Where a motion reference comes from: reference_url or reference_video_upload_id').optional(),
  reference_url: z.string().describe('A link to the reference clip (method motion, video_source link)').optional(),
  reference_video_upload_id: uploadId('reference_video').optional(),
};

export const paging = {
  page: z.number().int().min(1).describe('Page number, from 1').optional(),
  per_page: z.number().int().min(1).max(100).describe('Items per page (default 20)').optional(),
};
