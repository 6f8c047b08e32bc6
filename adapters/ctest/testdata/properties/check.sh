#!/bin/sh
echo "checking config"
echo "config.ini missing" >&2
exit 2
