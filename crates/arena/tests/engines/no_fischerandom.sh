#!/bin/sh
# An xboard engine that does not play Fischer Random: announces variants="normal" only.
while read -r line; do
  case "$line" in
    protover*) echo 'feature ping=1 setboard=1 usermove=1 variants="normal" myname="Classic Only" done=1' ;;
    ping*) echo "pong ${line#ping }" ;;
    quit) exit 0 ;;
  esac
done
