#!/bin/sh
# BRAZE_CC for threads.test: the library and its runtime built with ThreadSanitizer.
exec cc -fsanitize=thread -g "$@"
