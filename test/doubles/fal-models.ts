/**
 * The fal models the double serves, with the input rules fal enforces for each (its model pages):
 * unknown model ids are 404, missing or mistyped fields 422 with pydantic's `detail: [{loc, msg,
 * type}]` (fields fal does not know are ignored, as pydantic does by default).
 *
 * Kling motion control also checks the reference clip when it fetches it: 3-10 s with
 * `character_orientation: "image"`, 3-30 s with "video", MP4 or MOV. That failure only shows when
 * the request runs, so it is a 422 at the result, not at submit.
 */
export interface FieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
}

type Rule = (value: unknown) => FieldError['type'] | null;

const str: Rule = (v) => (typeof v === 'string' ? null : 'string_type');
const url: Rule = (v) => (typeof v === 'string' && /^(https?:|data:)/.test(v) ? null : 'url_parsing');
const bool: Rule = (v) => (typeof v === 'boolean' ? null : 'bool_type');
const int: Rule = (v) => (Number.isInteger(v) ? null : 'int_type');
const num: Rule = (v) => (typeof v === 'number' && Number.isFinite(v) ? null : 'float_type');
const oneOf = (...values: string[]): Rule => (v) => (typeof v === 'string' && values.includes(v) ? null : 'literal_error');
const imageSize: Rule = (v) =>
  typeof v === 'string'
    ? oneOf('square_hd', 'square', 'portrait_4_3', 'portrait_16_9', 'landscape_4_3', 'landscape_16_9')(v)
    : typeof v === 'object' && v !== null && Number.isInteger((v as { width?: unknown }).width) && Number.isInteger((v as { height?: unknown }).height)
      ? null
      : 'model_type';

interface ModelSpec {
  required: Record<string, Rule>;
  optional: Record<string, Rule>;
}

const MOTION: ModelSpec = {
  required: { image_url: url, video_url: url, character_orientation: oneOf('image', 'video') },
  optional: { prompt: str, keep_original_sound: bool },
};

const FLUX_COMMON = { seed: int, num_images: int, enable_safety_checker: bool, output_format: oneOf('jpeg', 'png'), sync_mode: bool };
const SAFETY_TOLERANCE = oneOf('1', '2', '3', '4', '5', '6');

export const FAL_MODELS: Record<string, ModelSpec> = {
  'fal-ai/flux/schnell': {
    required: { prompt: str },
    optional: { ...FLUX_COMMON, image_size: imageSize, num_inference_steps: int },
  },
  'fal-ai/flux/dev': {
    required: { prompt: str },
    optional: { ...FLUX_COMMON, image_size: imageSize, num_inference_steps: int, guidance_scale: num },
  },
  'fal-ai/flux-pro/v1.1': {
    required: { prompt: str },
    optional: { ...FLUX_COMMON, image_size: imageSize, safety_tolerance: SAFETY_TOLERANCE },
  },
  'fal-ai/flux-pro/v1.1-ultra': {
    required: { prompt: str },
    optional: { ...FLUX_COMMON, aspect_ratio: oneOf('21:9', '16:9', '4:3', '3:2', '1:1', '2:3', '3:4', '9:16', '9:21'), raw: bool, safety_tolerance: SAFETY_TOLERANCE },
  },
  'fal-ai/kling-video/v2.6/pro/image-to-video': {
    required: { prompt: str, start_image_url: url },
    optional: { duration: oneOf('5', '10'), negative_prompt: str, generate_audio: bool, end_image_url: url, voice_ids: (v) => (Array.isArray(v) ? null : 'list_type') },
  },
  'fal-ai/kling-video/v2.6/standard/motion-control': MOTION,
  'fal-ai/kling-video/v2.6/pro/motion-control': MOTION,
  // Kokoro's `prompt` is optional on fal (it defaults to ""), but an empty one speaks nothing.
  'fal-ai/kokoro/american-english': {
    required: { prompt: str },
    optional: { voice: str, speed: num },
  },
  'fal-ai/sync-lipsync': {
    required: { video_url: url, audio_url: url },
    optional: { model: oneOf('lipsync-1.8.0', 'lipsync-1.7.1', 'lipsync-1.9.0-beta'), sync_mode: oneOf('cut_off', 'loop', 'bounce', 'silence', 'remap') },
  },
};

const MESSAGES: Record<string, string> = {
  missing: 'Field required',
  string_type: 'Input should be a valid string',
  url_parsing: 'Input should be a valid URL',
  bool_type: 'Input should be a valid boolean',
  int_type: 'Input should be a valid integer',
  float_type: 'Input should be a valid number',
  literal_error: 'Input should be one of the allowed values',
  model_type: 'Input should be a valid dictionary or instance of ImageSize',
  list_type: 'Input should be a valid list',
};

/** fal's 422 detail for an input, or [] when it passes. */
export function inputErrors(spec: ModelSpec, input: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, rule] of Object.entries(spec.required)) {
    const type = input[field] === undefined ? 'missing' : rule(input[field]);
    if (type) errors.push({ loc: ['body', field], msg: MESSAGES[type]!, type });
  }
  for (const [field, rule] of Object.entries(spec.optional)) {
    const type = input[field] === undefined ? null : rule(input[field]);
    if (type) errors.push({ loc: ['body', field], msg: MESSAGES[type]!, type });
  }
  return errors;
}

/** Kling motion control's limits on the reference clip, per orientation. */
export function motionReferenceErrors(input: Record<string, unknown>, clip: { durationS: number; container: string | null }): FieldError[] {
  const maxS = input.character_orientation === 'video' ? 30 : 10;
  const errors: FieldError[] = [];
  if (clip.container !== 'mp4' && clip.container !== 'mov') {
    errors.push({ loc: ['body', 'video_url'], msg: 'The reference video must be an MP4 or MOV file', type: 'value_error' });
  }
  if (!(clip.durationS >= 3 && clip.durationS <= maxS)) {
    errors.push({
      loc: ['body', 'video_url'],
      msg: `The reference video must be between 3 and ${maxS} seconds long with character_orientation "${String(input.character_orientation)}" (got ${clip.durationS.toFixed(1)} s)`,
      type: 'value_error',
    });
  }
  return errors;
}
