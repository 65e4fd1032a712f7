#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# render.sh PAGE: a manual page as plain text, 78 columns, as `man` shows it
# on an 80-column terminal without bold or underline.  The build embeds
# this text in the blockrange binary for `blockrange help SUBCOMMAND`
# (embed.sh); check-cli compares the two.
set -eu
LC_ALL=C groff -man -Tascii -P-cbou -rLL=78n -rcR=1 -ww "$1"
