/** Where the stories' mock worker (stories/story-mock-worker.ts) takes its orders: shared by the worker and the page. */

/** POST here with a story's mock options to create its mock (answer: `{ baseUrl }`); DELETE `<baseUrl>` to stop it. */
export const storyMocksUrl = 'http://story-mocks.agent-embed.test/mocks';

/** The API base URL of the story mock `id`: an origin of its own, which the worker routes by. */
export function storyMockBaseUrl(id: number): string {
  return `http://story-${id}.mock.agent-embed.test/api/v1`;
}
