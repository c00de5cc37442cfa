// `npx cdk synth|deploy [-c stage=prod]`: everything is in lib/app.ts, which the tests use too.
import { buildApp } from '../lib/app';

buildApp().app.synth();
