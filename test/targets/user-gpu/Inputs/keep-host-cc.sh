#!/bin/sh
# BRAZE_CC for the tests that read the CUDA library's generated host code: copies the
# host.c it compiles to $BRAZE_KEEP_HOST, then compiles as cc would.
for a in "$@"; do
  case "$a" in
  */host.c) cp "$a" "$BRAZE_KEEP_HOST" || exit 1 ;;
  esac
done
exec cc "$@"
