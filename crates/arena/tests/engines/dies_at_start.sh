#!/bin/sh
# An engine that dies before its handshake, with a message on standard error.
echo "dies_at_start: missing network file" >&2
exit 1
