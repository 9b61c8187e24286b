// Two lessons finished with "show me" from the list (e2e/support/show-me-course.mjs says why only two):
// the first lesson, and Paxos, whose last step opens a world of its own.
import { showMeLessons } from './support/show-me-course.mjs';

showMeLessons(['exactly-once', 'paxos']);
