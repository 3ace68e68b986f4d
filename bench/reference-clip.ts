/**
 * A reference clip made offline for motion-transfer runs (the bench, and the engine's end-to-end
 * test): a real face, cut from the sample image that ships inside @vladmandic/human's npm package
 * (nothing committed, nothing downloaded), set in a vertical frame and moved by ffmpeg like a person
 * reacting to something: at rest, then a quick punch-in (leaning towards the camera), a sway, a small
 * bob and the head rolling a few degrees back and forth. A still cannot open its mouth or blink, so
 * only the head and camera channels of the motion carry anything.
 */
import { existsSync } from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';
import { humanModelDir, fileArg, runFfmpeg } from '#render';

/** human's own sample screenshot holds a small head-and-shoulders webcam photo. */
const HUMAN_SAMPLE = path.join(humanModelDir(), '..', 'assets', 'screenshot-faceid.jpg');

/** A real face photo (600×600 PNG, upscaled from the sample); throws when the package lacks the file. */
export async function realFacePng(): Promise<Buffer> {
  if (!existsSync(HUMAN_SAMPLE)) throw new Error(`the face sample ${HUMAN_SAMPLE} is missing from @vladmandic/human: reinstall it with npm install`);
  return sharp(HUMAN_SAMPLE).extract({ left: 14, top: 142, width: 140, height: 140 }).resize(600, 600).png().toBuffer();
}

export interface ReferenceClipOptions {
  /** Default 4.5 s. */
  durationS?: number;
  /** Default 540×960 (9:16). */
  width?: number;
  height?: number;
  /** Default 30. */
  fps?: number;
  /** When the reaction starts (before: at rest, which the motion source takes as neutral). Default 0.9 s. */
  onsetS?: number;
}

/**
 * Writes an H.264 MP4 (no audio) of `face` (any image sharp reads, face filling most of it) reacting.
 * The picture is a 9:16 still (light wall above, dark clothes below, the face in the upper half),
 * animated by zoompan (punch-in, sway, bob) and rotate (head roll, about ±4°).
 */
export async function makeReferenceClip(face: Buffer, outPath: string, options: ReferenceClipOptions = {}): Promise<void> {
  const durationS = options.durationS ?? 4.5;
  const width = options.width ?? 540;
  const height = options.height ?? 960;
  const fps = options.fps ?? 30;
  const onset = options.onsetS ?? 0.9;

  // The still, a little larger than the output so the zoom never upsamples much.
  const stillW = Math.round((width * 10) / 9 / 2) * 2;
  const stillH = Math.round((stillW * height) / width / 2) * 2;
  const faceSide = stillW;
  const faceTop = Math.round(stillH * 0.2);
  const still = `${outPath}.still.png`;
  const faceImage = await sharp(face).resize(faceSide, faceSide, { fit: 'cover' }).png().toBuffer();
  const clothes = await sharp({ create: { width: stillW, height: stillH - faceTop - faceSide + 2, channels: 3, background: '#141414' } }).png().toBuffer();
  await sharp({ create: { width: stillW, height: stillH, channels: 3, background: '#d8dcd9' } })
    .composite([
      { input: clothes, left: 0, top: faceTop + faceSide - 2 },
      { input: faceImage, left: 0, top: faceTop },
    ])
    .png()
    .toFile(still);

  // T: seconds (zoompan counts output frames in `on`); e: 1 once the reaction has started.
  const T = `(on/${fps})`;
  const e = `gte(${T},${onset})`;
  const s = `(${T}-${onset})`;
  // Quick punch-in over 0.15 s, held, then easing half way back out from 1.7 s.
  const punch = `clip(${s}/0.15,0,1)*(1-0.5*clip((${s}-0.8)/1.2,0,1))`;
  const zoom = `1.12+0.2*${punch}`;
  // Sway left/right (0.8 Hz), a bob (1.3 Hz) and a short lean back at the start, in still pixels.
  const x = `iw/2*(1-1/zoom)+${e}*${(stillW * 0.045).toFixed(1)}*sin(2*PI*0.8*${s})`;
  const y = `ih/2*(1-1/zoom)+${e}*(${(stillH * 0.012).toFixed(1)}*sin(2*PI*1.3*${s})-${(stillH * 0.02).toFixed(1)}*sin(PI*clip(${s}/0.35,0,1)))`;
  // Head roll: about ±4°, 0.75 Hz.
  const roll = `gte(t,${onset})*0.07*sin(2*PI*0.75*(t-${onset}))`;
  const filter = [
    `zoompan=z='${zoom}':x='${x}':y='${y}':d=1:s=${width}x${height}:fps=${fps}`,
    `rotate=a='${roll}':c=0xd8dcd9`,
    'format=yuv420p',
  ].join(',');
  try {
    await runFfmpeg(
      [
        '-v', 'error',
        '-loop', '1', '-framerate', String(fps), '-t', durationS.toFixed(3), '-i', fileArg(still),
        '-vf', filter,
        '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-r', String(fps),
        '-t', durationS.toFixed(3), '-movflags', '+faststart', '-f', 'mp4', '-y', fileArg(outPath),
      ],
      { timeoutMs: 60_000 },
    );
  } finally {
    await fsp.rm(still, { force: true });
  }
}
