function play(ctx)
  for _ = 1, 1000 do ctx:can_take_token("c3", "ring") end
end
