module app
