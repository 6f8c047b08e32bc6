describe('later', () => {
  test('rejects once it returned', () => {
    Promise.reject(new Error('nobody handles me'));
  });

  test('runs next', async () => {
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});
