/** @type {import('next').NextConfig} */
export default {
  // The app is built and served in the repository's tests: no telemetry, no lint step.
  poweredByHeader: false,
};
