import { DynamoVideoLibrary } from '#adapters/dynamodb/videos';
import { startTestTable, type TestTable } from '#test-support/dynamodb';
import { videoLibraryContract } from '#test-support/video-library-contract';

let table: TestTable;
let videos: DynamoVideoLibrary;
beforeAll(async () => {
  table = await startTestTable();
  videos = new DynamoVideoLibrary(table.table);
});
afterAll(() => table?.stop());

// Finalize's write with nothing else in its transaction (JobStore.finishWithVideo adds the job's move to done).
videoLibraryContract(() => ({ videos, record: (video) => videos.putNewWith(video) }), 9600);
