/**
 * The render wing's public face (docs/architecture.md, The render wing): everything outside
 * functions/render/ imports rendering from here, as `#render`, never from a file inside.
 *
 * Every module of the wing is free of side effects at import, and package.json's `sideEffects` says so
 * (it lists every other folder as having them), so esbuild keeps of this index only what a bundle
 * uses: the avatars function, which draws portraits, bundles no encoder, caption or compose code, and
 * a function without the native-modules layer gets no sharp or canvas from an export it does not use.
 */

// ffmpeg and ffprobe: the binaries, running them, probing a file, telling a video's container by its bytes.
export { FFMPEG, FFPROBE, MediaToolError, ffmpegPath, ffprobePath, fileArg, runFfmpeg, runFfprobe, type BinarySpec } from './ffmpeg/binaries';
export { probeMedia, type MediaProbe } from './ffmpeg/probe';
export { readFileHead } from './ffmpeg/file-head';
export { SNIFF_BYTES, sniffVideoContainer, type VideoContainer } from './ffmpeg/video-container';

// The canonical encoding every segment of a finished video shares, and re-encoding a demo video into it.
export {
  CANONICAL,
  CANONICAL_ENCODING_ID,
  canonicalConcatList,
  canonicalEncodeArgs,
  canonicalFrameCount,
  canonicalJoinArgs,
  canonicalLength,
  canonicalMismatches,
  canonicalSilence,
  toCanonicalAudio,
} from './encoding/canonical-encoding';
export { normaliseVideo } from './encoding/normalise';

// The sample product's demo clip (a fictional habit tracker), drawn by Skia over a bed ffmpeg synthesises, and the fonts it is drawn with.
export { renderSampleDemo } from './sample/sample-demo';
export { SAMPLE_FONTS } from './sample/sample-fonts';

// Uploads judged by their bytes: demo videos, motion references, avatar images.
export { DEMO_VIDEO_RULES, inspectDemoVideo } from './uploads/demo-video';
export { inspectReferenceVideo, referenceContentType } from './uploads/reference-video';
export { AVATAR_IMAGE_RULES, prepareAvatarImage } from './uploads/image-upload';

// The hook caption: drawn by Skia into a PNG, laid over a segment by ffmpeg.
export { CAPTION_SAFE_AREA, renderCaptionPng, type CaptionBox, type CaptionSpec, type CaptionStyle } from './caption/caption';
export { renderOverlayPng } from './caption/watermark';
export { CAPTION_FONTS } from './caption/caption-fonts';

// The finished video: the captioned reaction segment joined with the demo, and its poster.
export { captionSegment, joinWithDemo, posterJpeg, posterTimeS } from './compose/compose';
export { peakFrameIndex } from './compose/poster';

// A reaction clip: frames over time (from an emotion's curve), drawn by a FrameRenderer, piped to ffmpeg.
export { REST_CAMERA, type Emotion, type ReactionFrame } from './reaction/animation';
export { CALM_FACE, reactionFrames } from './reaction/expression-curve';
export { hashSeed, randomFrom, streamFor, type Random } from './reaction/seeded-random';
export { clipFaceBox, renderClipToFile, type FaceBox, type FrameRenderer } from './reaction/reaction-clip';
export { handHeld } from './reaction/camera';
export type { CaptionOverlay, EncodeStats } from './reaction/frame-encoder';

// The illustrated (DiceBear avataaars) avatar: its rig, its portrait, its animated scene.
export { DEMEANOURS, SKIN_TONES, isIllustratedRig, type Demeanour, type IllustratedRig } from './illustrated/illustrated-rig';
export { promptWords, rigFromPrompt } from './illustrated/avatar-prompt';
export { renderAvatarPng } from './illustrated/illustrated-avatar';
export { prepareIllustratedScene, typicalFaceBox } from './illustrated/illustrated-renderer';

// Photo avatars and motion from a reference clip (face landmarks, warping), and the face model's files,
// named for the Lambda layer that ships them. Importing these loads no tfjs: the model loads on the
// first detection.
export { FACE_MODELS, HUMAN_ENTRY, WASM_BINARY, humanModelDir } from './face/human-loader';
export { DEFAULT_SAMPLE_FPS } from './face/reference-motion';
// A motion reference's face check: in one process (referenceShowsFace), or in two halves, the frames sampled
// where ffmpeg is and looked at where the face runtime is (the videos and face-check functions on AWS).
export { REFERENCE_FACE_CHECK, REFERENCE_FACE_CHECK_MAX_FRAMES, referenceShowsFace, sampleReferenceFramesJpeg } from './face/reference-face';
export { faceBoxInFrames, framesShowFace } from './face/frame-faces';
// A clip's eyes-to-mouth box, where the engine did not draw the face itself (hosted engines): the frames it is found on.
export { sampleFaceBoxFramesJpeg, type FaceBoxFrames } from './face/face-box-frames';
export { detectFace } from './face/image-face';
export { motionSource, photoRenderer, type MotionSource, type PhotoRenderer } from './face/index';
// How alive a rendered reaction looks (issue 27): face motion per window, freezes, seams.
export { findFaceBox, freezes, lumaFrameAt, measureFaceMotion, seamStep, subjectOf, type FaceMotion } from './face/face-motion';

// The finished video's sound: loudness measured as the platforms measure it, the built-in beds and
// effects (synthesised), and the mix of a join (render/compose) levelled to the platforms' target.
export { measureLoudness, type Loudness } from './sound/loudness';
export { BUILT_IN_SOUNDS_VERSION, renderBuiltInSound } from './sound/built-in-sounds';
export type { JoinSound } from './compose/compose';
export { ingestMusicTrack, type MusicTrackFile } from './sound/music-track';

// A spoken voice line: espeak-ng's speech and phonemes, timed into mouth shapes (visemes) the drawn
// and the photo mouth follow.
export { ESPEAK, espeakPath } from './voice/espeak';
export { framesToLength, speakingFrames } from './voice/lip-sync';
export { mouthFrames, prepareSpokenLine, SPEECH_START_S, SPEECH_TAIL_S } from './voice/spoken-line';
