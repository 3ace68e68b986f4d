/**
 * How a demo's picture is put into the portrait frame (docs/decisions.md, Demo videos). `fit` is what
 * every demo got before reframing existed: the whole picture inside the frame, on black. `blur` and
 * `crop` are what an uploader asks for with a landscape or square demo (domain/demo-intake.ts): a
 * fitted picture would be a thin band in a black frame, which reads as a mistake on a phone.
 */
import { CANONICAL, canonicalRate, fitInsideCanonicalFrame, fitToCanonicalFrame, TO_CANONICAL_COLOUR } from './canonical-encoding';

export type DemoFraming = 'fit' | 'blur' | 'crop';

/**
 * The blurred backdrop is drawn at a quarter of the frame and scaled up: the upscale is itself a
 * blur, and a box blur over 270x480 costs a sixteenth of one over the whole frame (a 1080x1920
 * gaussian of the same reach took longer than the x264 encode). Darkened to about half and a little
 * desaturated, so the sharp picture stands out in front of it.
 */
const BACKDROP = {
  divisor: 4,
  boxRadius: 10,
  boxPower: 2,
  lumaGain: 0.5,
  chromaGain: 0.8,
} as const;

/** Centre-cuts the largest 9:16 (display) region, then scales it to fill the frame. */
function cropChain(): string {
  const { width: W, height: H } = CANONICAL;
  // In stored pixels: a display width of ih*9/16 is ih*9/16/sar stored pixels wide. Even sizes keep 4:2:0 chroma whole.
  const w = `min(iw,trunc(ih*${W}/${H}/sar/2)*2)`;
  const h = `min(ih,trunc(iw*sar*${H}/${W}/2)*2)`;
  return [canonicalRate(), `crop=w='${w}':h='${h}'`, `scale=${W}:${H}:${TO_CANONICAL_COLOUR}`, 'setsar=1', `format=${CANONICAL.video.pixFmt}`].join(',');
}

/** The backdrop: the picture scaled to cover a small frame, centre-cut, blurred, darkened, scaled up to the frame. */
function backdropChain(): string {
  const { width: W, height: H } = CANONICAL;
  const w = W / BACKDROP.divisor;
  const h = H / BACKDROP.divisor;
  const k = `max(${w}/(iw*sar),${h}/ih)`;
  const { boxRadius: r, boxPower: p, lumaGain, chromaGain } = BACKDROP;
  return [
    `scale=w='trunc(${k}*iw*sar/2)*2+2':h='trunc(${k}*ih/2)*2+2'`,
    `crop=${w}:${h}`,
    `boxblur=luma_radius=${r}:luma_power=${p}:chroma_radius=${r}:chroma_power=${p}`,
    `lutyuv=y='16+(val-16)*${lumaGain}':u='128+(val-128)*${chromaGain}':v='128+(val-128)*${chromaGain}'`,
    `scale=${W}:${H}:${TO_CANONICAL_COLOUR}`,
    'setsar=1',
  ].join(',');
}

/**
 * The video half of a demo's normalisation graph: `input` (a pad, e.g. `[0:1]`) framed into the
 * canonical frame, then `tail` (the canonical length), out at `output` (a pad label). Labels inside
 * the graph are prefixed with the output's name so that it can sit beside other chains.
 */
export function framedVideoGraph(framing: DemoFraming, input: string, tail: string, output: string): string {
  if (framing === 'fit') return `${input}${fitToCanonicalFrame()},${tail}${output}`;
  if (framing === 'crop') return `${input}${cropChain()},${tail}${output}`;
  const label = output.replace(/[[\]]/g, '');
  const [back, front, backdrop, picture] = ['back', 'front', 'backdrop', 'picture'].map((part) => `[${label}_${part}]`);
  return [
    `${input}${canonicalRate()},split=2${back}${front}`,
    `${back}${backdropChain()}${backdrop}`,
    `${front}${fitInsideCanonicalFrame()}${picture}`,
    `${backdrop}${picture}overlay=x=(W-w)/2:y=(H-h)/2,format=${CANONICAL.video.pixFmt},${tail}${output}`,
  ].join(';');
}
