import { version } from 'react';
import { describe, expect, it } from 'vitest';

describe('the React under test', () => {
  // The react18 project sets EXPECTED_REACT_MAJOR; the default project runs the React 19 the repo installs.
  it(`is React ${process.env.EXPECTED_REACT_MAJOR ?? '19'}`, () => {
    expect(version.split('.')[0]).toBe(process.env.EXPECTED_REACT_MAJOR ?? '19');
  });
});
