/** The in-memory video library the use-case tests use keeps the DynamoDB library's order and conditions. */
import { MemoryVideoLibrary } from '#test-doubles/memory/video-library';
import { videoLibraryContract } from '#test-support/video-library-contract';

const videos = new MemoryVideoLibrary();
videoLibraryContract(() => ({ videos, record: async (video) => videos.putNew(video) }), 9600);
