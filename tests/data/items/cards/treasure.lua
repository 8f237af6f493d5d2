-- Treasure: a deck rule acting for the player to move (acts_for: mover).

function game_begins(ctx)
  ctx:shuffle_items("bag")
  local bag = ctx:items("bag")
  ctx:move_item(bag[1], { square = "d4" })            -- face down by default
  ctx:move_item(bag[2], { square = "e5" })
  ctx:move_item(bag[3], { zone = "purse", owner = "dark" })
  ctx:move_item(bag[4], { zone = "purse", owner = "light" })
end

function on_landed(ctx, event)
  local token = ctx:item_at(event.at)
  if not token or token.face == "up" then return end
  local me = ctx:player()
  local id = ctx:turn_item(event.at, "up")
  ctx:move_item(id, { zone = "purse", owner = me })
  if ctx:count_items("purse", me) >= 3 then
    local shown = ctx:ask_option("Show which token?", ctx:items("purse", me))
    ctx:move_item(shown, { zone = "shown" })
  end
end
