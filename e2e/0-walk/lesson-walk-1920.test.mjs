// Every step of every lesson done by hand at 1920×1080 through the visible controls, never "show me"
// (issue 30's "must hold"); the walk itself is e2e/lesson-walk.mjs. One file per window size, so the
// sizes can run in parallel.
import { VIEWPORTS, walkCourse } from '../lesson-walk.mjs';

walkCourse(VIEWPORTS['1920']);
