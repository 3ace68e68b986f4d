/**
 * The hook caption's choices as the API names them. The preview is not drawn here: the API draws it
 * with the videos' own renderer (POST /captions/preview), so the studio shows the very pixels the
 * video will have.
 */
import type { Job } from '#client/types';
import { optionsOf } from '../../components/options';

export type CaptionPosition = Job['hook_position'];
export type CaptionSize = Job['hook_size'];
export type CaptionStyle = Job['hook_style'];
export type CaptionDuration = Job['hook_duration'];

export interface Caption {
  text: string;
  position: CaptionPosition;
  size: CaptionSize;
  style: CaptionStyle;
  duration: CaptionDuration;
}

export const CAPTION_DEFAULTS: Caption = { text: '', position: 'top', size: 'medium', style: 'outline', duration: 'reaction' };

export const POSITION_OPTIONS = optionsOf<CaptionPosition>({ top: 'Top', middle: 'Middle', bottom: 'Bottom' });

export const SIZE_OPTIONS = optionsOf<CaptionSize>({ small: 'Small', medium: 'Medium', large: 'Large' });

export const STYLE_OPTIONS = optionsOf<CaptionStyle>({ outline: 'Outline', box: 'Box', highlight: 'Highlight', glow: 'Glow', bold_caps: 'Bold caps' });

export const DURATION_OPTIONS = optionsOf<CaptionDuration>({ reaction: 'During the reaction', full: 'Whole video' });

/** A job's (or a take's) caption as the studio's controls hold it. */
export const captionOfJob = (job: Pick<Job, 'hook_text' | 'hook_position' | 'hook_size' | 'hook_style' | 'hook_duration'>): Caption => ({
  text: job.hook_text ?? '',
  position: job.hook_position,
  size: job.hook_size,
  style: job.hook_style,
  duration: job.hook_duration,
});
