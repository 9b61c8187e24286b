// A lesson finished with "show me" from the list (e2e/support/show-me-course.mjs says why only one): Paxos,
// whose last step opens a world of its own; the test also checks the list shows the course in order.
import { showMeLessons } from './support/show-me-course.mjs';

showMeLessons(['paxos']);
