/**
 * The commands that upload from CI, for one Tally and one profile: what the upload page shows with
 * its own address and profile id filled in, and what docs/uploading-from-ci.md shows with
 * placeholders (test/client/upload-client.test.ts holds the doc to them). Each fetches the upload
 * client from the Tally it uploads to, so a runner needs only Node 18 or later and curl.
 */

export interface CiSnippets {
  github_actions: string;
  gitlab_ci: string;
  jenkins: string;
}

/** A shell-quoted value, bare when it needs no quotes. */
function sh(value: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The one command: fetch the client, run it. `TALLY_API_KEY` comes from the environment. */
export function uploadCommand(origin: string, profileId: string): string {
  return (
    `curl -fsSO ${sh(`${origin}/tally-upload.mjs`)} && node tally-upload.mjs --url ${sh(origin)} ` +
    `--profile ${sh(profileId)} --formatter junit --tag branch:main build/test-results`
  );
}

export function ciSnippets(origin: string, profileId: string): CiSnippets {
  const run = (tags: string): string =>
    `node tally-upload.mjs --url "$TALLY" --profile ${sh(profileId)} --formatter junit ${tags} build/test-results`;
  return {
    github_actions: [
      '# .github/workflows/test.yml (TALLY_API_KEY: a repository secret)',
      'jobs:',
      '  test:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '      - uses: actions/checkout@v4',
      '      - run: ./gradlew test',
      '      - name: Upload test results to Tally',
      '        if: ${{ !cancelled() }} # also when the tests failed',
      '        env:',
      `          TALLY: ${origin}`,
      '          TALLY_API_KEY: ${{ secrets.TALLY_API_KEY }}',
      '        run: |',
      '          curl -fsSO "$TALLY/tally-upload.mjs"',
      `          ${run('--tag "branch:$GITHUB_REF_NAME" --tag "commit:$GITHUB_SHA"')}`,
    ].join('\n'),
    gitlab_ci: [
      '# .gitlab-ci.yml: the test job keeps its results, even when it fails ...',
      'test:',
      '  script: ./gradlew test',
      '  artifacts:',
      '    when: always',
      '    paths: [build/test-results/]',
      '',
      '# ... and a job after every stage uploads them (TALLY_API_KEY: a masked CI/CD variable)',
      'tally:',
      '  stage: .post',
      '  image: node:20',
      '  when: always',
      '  variables:',
      `    TALLY: ${origin}`,
      '  script:',
      '    - curl -fsSO "$TALLY/tally-upload.mjs"',
      `    - ${run('--tag "branch:$CI_COMMIT_REF_NAME" --tag "commit:$CI_COMMIT_SHA"')}`,
    ].join('\n'),
    jenkins: [
      '// Jenkinsfile (declarative): the key is a "secret text" credential named tally-api-key',
      'pipeline {',
      '  agent any',
      `  environment { TALLY = '${origin}' }`,
      '  stages {',
      "    stage('Test') { steps { sh './gradlew test' } }",
      '  }',
      '  post {',
      '    always {',
      "      withCredentials([string(credentialsId: 'tally-api-key', variable: 'TALLY_API_KEY')]) {",
      "        sh '''",
      '          curl -fsSO "$TALLY/tally-upload.mjs"',
      `          ${run('--tag "branch:$BRANCH_NAME" --tag "commit:$GIT_COMMIT"')}`,
      "        '''",
      '      }',
      '    }',
      '  }',
      '}',
    ].join('\n'),
  };
}
