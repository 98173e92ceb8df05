/* Stage lines for callers that show a compile's progress (braze compile --progress,
 * read by the Python package: docs/python.md "Progress"): once enabled, each
 * braze_progress(STAGE) writes "braze: stage STAGE at MS ms" to stderr, MS counted
 * from braze_progress_enable. Stages: import, passes, lower, llvm, link, done. */
#ifndef BRAZE_SUPPORT_PROGRESS_H
#define BRAZE_SUPPORT_PROGRESS_H

void braze_progress_enable(void);
void braze_progress(const char *stage);

#endif
